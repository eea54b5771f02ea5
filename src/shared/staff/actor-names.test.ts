import { describe, expect, it } from 'vitest';
import { actorName } from './actor-names';

describe('who acted, as the console names them', () => {
  it('names a member by the name or address the trail keeps', () => {
    expect(actorName('staff', 'reader@example.edu')).toBe('reader@example.edu');
    expect(actorName('staff', null)).toBe('Staff');
  });

  it('names the portal’s own work as the portal, saying what it did', () => {
    expect(actorName('system', 'decision release')).toBe('The portal (automatic release)');
    expect(actorName('system', 'command line')).toBe('The portal (server command)');
    expect(actorName('system', 'nightly sweep')).toBe('The portal (nightly sweep)');
    expect(actorName('system', null)).toBe('The portal');
  });

  it('names everyone else by what they are', () => {
    expect(actorName('applicant', null)).toBe('The applicant');
    expect(actorName('service_link', null)).toBe('Read-only link');
    expect(actorName('service_link', 'Registrar')).toBe('Registrar (Read-only link)');
    expect(actorName('anonymous', undefined)).toBe('Not signed in');
  });
});
