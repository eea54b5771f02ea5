import type { PublicTenantConfig } from '../../shared/tenant/tenant-config';
import { ExternalLink } from '../ui/external-link';
import styles from './modal-content.module.css';

function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

export function HelpContent({ tenant }: { tenant: PublicTenantConfig }) {
  const address = tenant.admissions_address;

  return (
    <div className={styles.sections}>
      <section aria-labelledby="help-technical">
        <h3 id="help-technical">Technical help</h3>
        <p>
          If something in the application is not working, email{' '}
          <a href={`mailto:${tenant.help_email}`}>{tenant.help_email}</a> or call{' '}
          <a href={telHref(tenant.phones.help)}>{tenant.phones.help}</a>. Tell us what you were
          doing and which page you were on.
        </p>
      </section>
      <section aria-labelledby="help-pdf">
        <h3 id="help-pdf">Viewing PDF files</h3>
        <p>
          Your application and some documents are PDF files. If you cannot open them,{' '}
          <ExternalLink href={tenant.urls.pdf_reader}>download a free PDF reader</ExternalLink>.
        </p>
      </section>
      <section aria-labelledby="help-admissions">
        <h3 id="help-admissions">Questions about admission</h3>
        <p>Contact the admissions office:</p>
        <address className={styles.address}>
          {address.name}
          <br />
          {address.line_1}
          <br />
          {address.line_2 ? (
            <>
              {address.line_2}
              <br />
            </>
          ) : null}
          {address.city}, {address.state} {address.zip}
          <br />
          Phone: <a href={telHref(tenant.phones.admissions)}>{tenant.phones.admissions}</a>
        </address>
      </section>
    </div>
  );
}
