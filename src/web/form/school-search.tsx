import { LookupField, type LookupFieldProps } from './lookup-field';

type SchoolSearchProps = Omit<LookupFieldProps, 'placeholder' | 'guidance'>;

/**
 * The school search (spec 001 section 3): suggests colleges or high schools by name, city or
 * CEEB code; picking one fills its name, address, city, state, ZIP code, CEEB code and country.
 */
export function SchoolSearch(props: SchoolSearchProps) {
  return (
    <LookupField
      {...props}
      placeholder="Type the school's name, city or CEEB code"
      guidance="Type to search the list of schools, then press Down to choose one. If your school is not listed, type its full name and leave the field."
    />
  );
}
