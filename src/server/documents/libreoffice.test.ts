import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_DOCX, HOSTILE_DOCX_TEXT } from '../test/hostile-docx';
import { extractPdfText } from '../test/pdf-text';
import { makePdf, makeSampleDocx } from '../test/sample-files';
import {
  convertWithLibreOffice,
  findSoffice,
  NO_NETWORK_ISOLATION_WARNING,
  networkIsolation,
  networkIsolationOnce,
  PROFILE_SETTINGS,
  probeNetworkIsolation,
} from './libreoffice';
import { walkXml } from './package-xml';

const ownNetworkNamespace = readlinkSync('/proc/self/ns/net');
const isolationWorks = (await networkIsolation()).length > 0;
const noIsolation = async () => [];
const soffice = findSoffice();
const registry = soffice
  ? path.join(path.dirname(realpathSync(soffice)), '..', 'share', 'registry')
  : null;

describe('LibreOffice runs without network', () => {
  let dir: string;
  let goodPdf: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'soffice-sandbox-'));
    goodPdf = path.join(dir, 'good.pdf');
    writeFileSync(goodPdf, await makePdf([['Converted']]));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A stand-in soffice that records its network namespace and its profile's settings. */
  function recordingSoffice(): { soffice: string; namespace: string; settings: string } {
    const soffice = path.join(dir, `soffice-${Math.random().toString(36).slice(2)}`);
    const namespace = `${soffice}.namespace`;
    const settings = `${soffice}.settings`;
    writeFileSync(
      soffice,
      `#!/bin/sh
out=""; prev=""; profile=""
for a in "$@"; do
  [ "$prev" = "--outdir" ] && out="$a"
  case "$a" in -env:UserInstallation=file://*) profile="\${a#-env:UserInstallation=file://}";; esac
  prev="$a"
done
readlink /proc/self/ns/net > "${namespace}"
cp "$profile/user/registrymodifications.xcu" "${settings}"
cp "${goodPdf}" "$out/document.pdf"
`,
    );
    chmodSync(soffice, 0o755);
    return { soffice, namespace, settings };
  }

  it('finds out once whether unshare works, and warns once when it does not', async () => {
    expect(await probeNetworkIsolation(null)).toBeNull();
    expect(await probeNetworkIsolation('/bin/false')).toBeNull();
    const warnings: string[] = [];
    const isolation = networkIsolationOnce('/bin/false', (message) => warnings.push(message));
    expect(await isolation()).toEqual([]);
    expect(await isolation()).toEqual([]);
    expect(warnings).toEqual([NO_NETWORK_ISOLATION_WARNING]);
  });

  it.skipIf(!isolationWorks)(
    'starts soffice in a network namespace of its own where the system allows it',
    async () => {
      const isolated = recordingSoffice();
      await convertWithLibreOffice(makeSampleDocx(), isolated.soffice);
      expect(readFileSync(isolated.namespace, 'utf8').trim()).not.toBe(ownNetworkNamespace);

      // Where unshare is refused, soffice shares the server's network: the check above can tell.
      const shared = recordingSoffice();
      await convertWithLibreOffice(makeSampleDocx(), shared.soffice, 10_000, noIsolation);
      expect(readFileSync(shared.namespace, 'utf8').trim()).toBe(ownNetworkNamespace);
    },
  );

  it('gives soffice a profile that runs no macros, loads no linked pictures, updates no links', async () => {
    const recorded = recordingSoffice();
    await convertWithLibreOffice(makeSampleDocx(), recorded.soffice, 10_000, noIsolation);
    const settings = new Map<string, string>();
    let item = '';
    let prop = '';
    walkXml(readFileSync(recorded.settings, 'utf8'), {
      open(element) {
        if (element.local === 'item') item = element.attributes['oor:path']?.value ?? '';
        if (element.local === 'prop') prop = element.attributes['oor:name']?.value ?? '';
      },
      text(characters, parent) {
        if (parent?.local === 'value') settings.set(`${item}/${prop}`, characters);
      },
    });
    expect(Object.fromEntries(settings)).toEqual({
      '/org.openoffice.Office.Common/Security/Scripting/MacroSecurityLevel': '3',
      '/org.openoffice.Office.Common/Security/Scripting/DisableMacrosExecution': 'true',
      '/org.openoffice.Office.Common/Security/Scripting/BlockUntrustedRefererLinks': 'true',
      '/org.openoffice.Office.Writer/Content/Update/Link': '0',
      '/org.openoffice.Office.Calc/Content/Update/Link': '1',
    });
  });

  it.skipIf(!registry || !existsSync(registry))(
    "uses only settings the installed LibreOffice's schema defines",
    () => {
      const defined = new Set<string>();
      for (const file of readdirSync(registry ?? '').filter((name) => name.endsWith('.xcd'))) {
        const names: string[] = [];
        let component = '';
        walkXml(readFileSync(path.join(registry ?? '', file), 'utf8'), {
          open(element) {
            const name = element.attributes['oor:name']?.value ?? '';
            if (element.local === 'component-schema') {
              component = `/${element.attributes['oor:package']?.value}.${name}`;
              names.length = 0;
            } else if (element.local === 'group') {
              names.push(name);
            } else if (element.local === 'prop' && component) {
              defined.add([component, ...names, name].join('/'));
            }
          },
          close(element) {
            if (element.local === 'group') names.pop();
            if (element.local === 'component-schema') component = '';
          },
        });
      }
      for (const [item, name] of PROFILE_SETTINGS) expect(defined).toContain(`${item}/${name}`);
    },
  );
});

describe.skipIf(!soffice)('the real soffice with network', () => {
  let server: Server;
  let base: string;
  const requests: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('loads no linked picture through its profile alone, even with network', async () => {
    const linked = HOSTILE_DOCX['linked picture (a:blip r:link)'];
    if (!linked || !soffice) throw new Error('unavailable');
    const pdf = await convertWithLibreOffice(
      linked((name) => `${base}/${name}`),
      soffice,
      60_000,
      noIsolation,
    );
    expect(requests).toEqual([]);
    expect(await extractPdfText(pdf)).toContain(HOSTILE_DOCX_TEXT);
  }, 60_000);
});
