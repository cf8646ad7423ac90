import { Handshake, Mail, MapPin, Phone, PhoneCall } from 'lucide-react';
import {
  contactHero,
  contactInfo,
  contactSeo,
  discoveryCall,
  mailtoOr,
  messageSection,
  partnerships,
} from '~/content/contact';
import { useRouteLoaderData } from 'react-router';
import { phoneHref, type BusinessDetails } from '~/content/business';
import { PageHero } from '~/components/sections/page-hero';
import { ContactForm } from '~/features/contact/contact-form';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: '/contact', ...contactSeo });

export default function Contact() {
  // The business's own details (the root's, decision 047); none set: the card says so, no stand-ins.
  const business = useRouteLoaderData<{ business: BusinessDetails | null }>('root')?.business;
  return (
    <>
      <PageHero eyebrow={contactHero.eyebrow} title={contactHero.title} intro={contactHero.intro} />
      <div className="mx-auto grid max-w-6xl gap-8 px-4 pb-16 md:pb-24 lg:grid-cols-[1.5fr_1fr]">
        <section aria-labelledby="message-title" className="card sm:p-8">
          <h2 id="message-title" className="text-2xl font-bold text-ink-900">
            {messageSection.title}
          </h2>
          <p className="mt-2 text-ink-700">{messageSection.intro}</p>
          <div className="mt-6">
            <ContactForm />
          </div>
        </section>

        <div className="grid content-start gap-8">
          <section
            aria-labelledby="info-title"
            className="rounded-[var(--radius-card)] bg-ink-900 p-6 text-white sm:p-8"
          >
            <h2 id="info-title" className="text-xl font-bold">
              {contactInfo.title}
            </h2>
            {business ? (
              <dl className="mt-6 grid gap-5">
                <div>
                  <dt className="flex items-center gap-3 text-sm font-semibold text-ink-200">
                    <Mail aria-hidden="true" className="size-5 shrink-0 text-brand-200" />
                    {contactInfo.emailLabel}
                  </dt>
                  <dd className="mt-1 pl-8">
                    <a
                      href={`mailto:${business.email}`}
                      className="break-all text-white underline hover:text-brand-100"
                    >
                      {business.email}
                    </a>
                  </dd>
                </div>
                {business.phone && (
                  <div>
                    <dt className="flex items-center gap-3 text-sm font-semibold text-ink-200">
                      <Phone aria-hidden="true" className="size-5 shrink-0 text-brand-200" />
                      {contactInfo.phoneLabel}
                    </dt>
                    <dd className="mt-1 pl-8">
                      <a
                        href={phoneHref(business.phone)}
                        className="text-white underline hover:text-brand-100"
                      >
                        {business.phone}
                      </a>
                      <span className="block text-sm text-ink-200">{contactInfo.phoneHours}</span>
                    </dd>
                  </div>
                )}
                <div>
                  <dt className="flex items-center gap-3 text-sm font-semibold text-ink-200">
                    <MapPin aria-hidden="true" className="size-5 shrink-0 text-brand-200" />
                    {contactInfo.officeLabel}
                  </dt>
                  <dd className="mt-1 pl-8">
                    <address className="not-italic">
                      {[business.name, ...business.address].map((line) => (
                        <span key={line} className="block">
                          {line}
                        </span>
                      ))}
                    </address>
                  </dd>
                </div>
              </dl>
            ) : (
              <p className="mt-6 text-ink-200">{contactInfo.useForm}</p>
            )}
          </section>

          <section aria-labelledby="discovery-title" className="card">
            <span className="inline-flex size-11 items-center justify-center rounded-xl bg-brand-100 text-brand-800">
              <PhoneCall aria-hidden="true" className="size-5" />
            </span>
            <h2 id="discovery-title" className="mt-4 text-xl font-bold text-ink-900">
              {discoveryCall.title}
            </h2>
            <p className="mt-1 text-sm font-semibold text-success-700">{discoveryCall.badge}</p>
            <p className="mt-3 leading-relaxed text-ink-700">{discoveryCall.text}</p>
            <a href={mailtoOr(business?.email, discoveryCall.cta.subject)} className="btn btn-secondary mt-5">
              {discoveryCall.cta.label}
            </a>
          </section>

          <section aria-labelledby="partnerships-title" className="card">
            <span className="inline-flex size-11 items-center justify-center rounded-xl bg-ink-100 text-ink-800">
              <Handshake aria-hidden="true" className="size-5" />
            </span>
            <h2 id="partnerships-title" className="mt-4 text-xl font-bold text-ink-900">
              {partnerships.title}
            </h2>
            <p className="mt-3 leading-relaxed text-ink-700">{partnerships.text}</p>
            <a href={mailtoOr(business?.email, partnerships.cta.subject)} className="btn btn-dark mt-5">
              {partnerships.cta.label}
            </a>
          </section>
        </div>
      </div>
    </>
  );
}
