import { LookupField, type LookupFieldProps } from './lookup-field';

type AddressLookupProps = Omit<LookupFieldProps, 'placeholder' | 'guidance'>;

/**
 * The street line of the address widget (spec 001 section 3): after the street, a ZIP code or a
 * city brings suggestions that fill the city, state, ZIP code and country.
 */
export function AddressLookup(props: AddressLookupProps) {
  return (
    <LookupField
      {...props}
      placeholder="Street, then city or ZIP code"
      guidance="Type the street, a comma, then the city or ZIP code to see suggestions; press Down to choose one. What you type is kept as it is if you choose none."
    />
  );
}
