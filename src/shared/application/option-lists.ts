import { EMPTY_OPTION } from '../form/choices';
import type { OptionItem } from '../form/model';

/**
 * Every option list the application's questions use (spec 001 section 3): pairs of value and label.
 * Lists for selects start with the empty '--' entry; lists for radio groups leave it out. Codes are
 * the values stored in the answers (and sent on to the admissions system); labels are what the
 * applicant reads and what `{key}_desc` keeps. See the decision record in docs/decisions.
 */

type Pairs = ReadonlyArray<readonly [value: string, label: string]>;

const options = (pairs: Pairs): OptionItem[] => pairs.map(([value, label]) => ({ value, label }));
const selectList = (pairs: Pairs): readonly OptionItem[] => [EMPTY_OPTION, ...options(pairs)];
const radioList = (pairs: Pairs): readonly OptionItem[] => options(pairs);

/** The label of a value in a list, or '' when the list does not hold it. */
export function optionLabel(list: readonly OptionItem[], value: string): string {
  return list.find((option) => option.value === value)?.label ?? '';
}

// ---------------------------------------------------------------------------------------------
// Countries: ISO 3166-1 alpha-3 codes with the English short names.

export const UNITED_STATES = 'USA';
export const CANADA = 'CAN';
/** Countries whose addresses need a state or province and a ZIP/Postal Code (spec 001 section 5). */
export const STATE_COUNTRIES: readonly string[] = [UNITED_STATES, CANADA];

const COUNTRIES: Pairs = [
  ['AFG', 'Afghanistan'],
  ['ALA', 'Åland Islands'],
  ['ALB', 'Albania'],
  ['DZA', 'Algeria'],
  ['ASM', 'American Samoa'],
  ['AND', 'Andorra'],
  ['AGO', 'Angola'],
  ['AIA', 'Anguilla'],
  ['ATA', 'Antarctica'],
  ['ATG', 'Antigua and Barbuda'],
  ['ARG', 'Argentina'],
  ['ARM', 'Armenia'],
  ['ABW', 'Aruba'],
  ['AUS', 'Australia'],
  ['AUT', 'Austria'],
  ['AZE', 'Azerbaijan'],
  ['BHS', 'Bahamas'],
  ['BHR', 'Bahrain'],
  ['BGD', 'Bangladesh'],
  ['BRB', 'Barbados'],
  ['BLR', 'Belarus'],
  ['BEL', 'Belgium'],
  ['BLZ', 'Belize'],
  ['BEN', 'Benin'],
  ['BMU', 'Bermuda'],
  ['BTN', 'Bhutan'],
  ['BOL', 'Bolivia (Plurinational State of)'],
  ['BES', 'Bonaire, Sint Eustatius and Saba'],
  ['BIH', 'Bosnia and Herzegovina'],
  ['BWA', 'Botswana'],
  ['BVT', 'Bouvet Island'],
  ['BRA', 'Brazil'],
  ['IOT', 'British Indian Ocean Territory'],
  ['BRN', 'Brunei Darussalam'],
  ['BGR', 'Bulgaria'],
  ['BFA', 'Burkina Faso'],
  ['BDI', 'Burundi'],
  ['CPV', 'Cabo Verde'],
  ['KHM', 'Cambodia'],
  ['CMR', 'Cameroon'],
  ['CAN', 'Canada'],
  ['CYM', 'Cayman Islands'],
  ['CAF', 'Central African Republic'],
  ['TCD', 'Chad'],
  ['CHL', 'Chile'],
  ['CHN', 'China'],
  ['CXR', 'Christmas Island'],
  ['CCK', 'Cocos (Keeling) Islands'],
  ['COL', 'Colombia'],
  ['COM', 'Comoros'],
  ['COG', 'Congo'],
  ['COD', 'Congo (Democratic Republic of the)'],
  ['COK', 'Cook Islands'],
  ['CRI', 'Costa Rica'],
  ['CIV', "Côte d'Ivoire"],
  ['HRV', 'Croatia'],
  ['CUB', 'Cuba'],
  ['CUW', 'Curaçao'],
  ['CYP', 'Cyprus'],
  ['CZE', 'Czechia'],
  ['DNK', 'Denmark'],
  ['DJI', 'Djibouti'],
  ['DMA', 'Dominica'],
  ['DOM', 'Dominican Republic'],
  ['ECU', 'Ecuador'],
  ['EGY', 'Egypt'],
  ['SLV', 'El Salvador'],
  ['GNQ', 'Equatorial Guinea'],
  ['ERI', 'Eritrea'],
  ['EST', 'Estonia'],
  ['SWZ', 'Eswatini'],
  ['ETH', 'Ethiopia'],
  ['FLK', 'Falkland Islands (Malvinas)'],
  ['FRO', 'Faroe Islands'],
  ['FJI', 'Fiji'],
  ['FIN', 'Finland'],
  ['FRA', 'France'],
  ['GUF', 'French Guiana'],
  ['PYF', 'French Polynesia'],
  ['ATF', 'French Southern Territories'],
  ['GAB', 'Gabon'],
  ['GMB', 'Gambia'],
  ['GEO', 'Georgia'],
  ['DEU', 'Germany'],
  ['GHA', 'Ghana'],
  ['GIB', 'Gibraltar'],
  ['GRC', 'Greece'],
  ['GRL', 'Greenland'],
  ['GRD', 'Grenada'],
  ['GLP', 'Guadeloupe'],
  ['GUM', 'Guam'],
  ['GTM', 'Guatemala'],
  ['GGY', 'Guernsey'],
  ['GIN', 'Guinea'],
  ['GNB', 'Guinea-Bissau'],
  ['GUY', 'Guyana'],
  ['HTI', 'Haiti'],
  ['HMD', 'Heard Island and McDonald Islands'],
  ['VAT', 'Holy See'],
  ['HND', 'Honduras'],
  ['HKG', 'Hong Kong'],
  ['HUN', 'Hungary'],
  ['ISL', 'Iceland'],
  ['IND', 'India'],
  ['IDN', 'Indonesia'],
  ['IRN', 'Iran (Islamic Republic of)'],
  ['IRQ', 'Iraq'],
  ['IRL', 'Ireland'],
  ['IMN', 'Isle of Man'],
  ['ISR', 'Israel'],
  ['ITA', 'Italy'],
  ['JAM', 'Jamaica'],
  ['JPN', 'Japan'],
  ['JEY', 'Jersey'],
  ['JOR', 'Jordan'],
  ['KAZ', 'Kazakhstan'],
  ['KEN', 'Kenya'],
  ['KIR', 'Kiribati'],
  ['PRK', "Korea (Democratic People's Republic of)"],
  ['KOR', 'Korea (Republic of)'],
  ['KWT', 'Kuwait'],
  ['KGZ', 'Kyrgyzstan'],
  ['LAO', "Lao People's Democratic Republic"],
  ['LVA', 'Latvia'],
  ['LBN', 'Lebanon'],
  ['LSO', 'Lesotho'],
  ['LBR', 'Liberia'],
  ['LBY', 'Libya'],
  ['LIE', 'Liechtenstein'],
  ['LTU', 'Lithuania'],
  ['LUX', 'Luxembourg'],
  ['MAC', 'Macao'],
  ['MDG', 'Madagascar'],
  ['MWI', 'Malawi'],
  ['MYS', 'Malaysia'],
  ['MDV', 'Maldives'],
  ['MLI', 'Mali'],
  ['MLT', 'Malta'],
  ['MHL', 'Marshall Islands'],
  ['MTQ', 'Martinique'],
  ['MRT', 'Mauritania'],
  ['MUS', 'Mauritius'],
  ['MYT', 'Mayotte'],
  ['MEX', 'Mexico'],
  ['FSM', 'Micronesia (Federated States of)'],
  ['MDA', 'Moldova (Republic of)'],
  ['MCO', 'Monaco'],
  ['MNG', 'Mongolia'],
  ['MNE', 'Montenegro'],
  ['MSR', 'Montserrat'],
  ['MAR', 'Morocco'],
  ['MOZ', 'Mozambique'],
  ['MMR', 'Myanmar'],
  ['NAM', 'Namibia'],
  ['NRU', 'Nauru'],
  ['NPL', 'Nepal'],
  ['NLD', 'Netherlands'],
  ['NCL', 'New Caledonia'],
  ['NZL', 'New Zealand'],
  ['NIC', 'Nicaragua'],
  ['NER', 'Niger'],
  ['NGA', 'Nigeria'],
  ['NIU', 'Niue'],
  ['NFK', 'Norfolk Island'],
  ['MKD', 'North Macedonia'],
  ['MNP', 'Northern Mariana Islands'],
  ['NOR', 'Norway'],
  ['OMN', 'Oman'],
  ['PAK', 'Pakistan'],
  ['PLW', 'Palau'],
  ['PSE', 'Palestine, State of'],
  ['PAN', 'Panama'],
  ['PNG', 'Papua New Guinea'],
  ['PRY', 'Paraguay'],
  ['PER', 'Peru'],
  ['PHL', 'Philippines'],
  ['PCN', 'Pitcairn'],
  ['POL', 'Poland'],
  ['PRT', 'Portugal'],
  ['PRI', 'Puerto Rico'],
  ['QAT', 'Qatar'],
  ['REU', 'Réunion'],
  ['ROU', 'Romania'],
  ['RUS', 'Russian Federation'],
  ['RWA', 'Rwanda'],
  ['BLM', 'Saint Barthélemy'],
  ['SHN', 'Saint Helena, Ascension and Tristan da Cunha'],
  ['KNA', 'Saint Kitts and Nevis'],
  ['LCA', 'Saint Lucia'],
  ['MAF', 'Saint Martin (French part)'],
  ['SPM', 'Saint Pierre and Miquelon'],
  ['VCT', 'Saint Vincent and the Grenadines'],
  ['WSM', 'Samoa'],
  ['SMR', 'San Marino'],
  ['STP', 'Sao Tome and Principe'],
  ['SAU', 'Saudi Arabia'],
  ['SEN', 'Senegal'],
  ['SRB', 'Serbia'],
  ['SYC', 'Seychelles'],
  ['SLE', 'Sierra Leone'],
  ['SGP', 'Singapore'],
  ['SXM', 'Sint Maarten (Dutch part)'],
  ['SVK', 'Slovakia'],
  ['SVN', 'Slovenia'],
  ['SLB', 'Solomon Islands'],
  ['SOM', 'Somalia'],
  ['ZAF', 'South Africa'],
  ['SGS', 'South Georgia and the South Sandwich Islands'],
  ['SSD', 'South Sudan'],
  ['ESP', 'Spain'],
  ['LKA', 'Sri Lanka'],
  ['SDN', 'Sudan'],
  ['SUR', 'Suriname'],
  ['SJM', 'Svalbard and Jan Mayen'],
  ['SWE', 'Sweden'],
  ['CHE', 'Switzerland'],
  ['SYR', 'Syrian Arab Republic'],
  ['TWN', 'Taiwan'],
  ['TJK', 'Tajikistan'],
  ['TZA', 'Tanzania, United Republic of'],
  ['THA', 'Thailand'],
  ['TLS', 'Timor-Leste'],
  ['TGO', 'Togo'],
  ['TKL', 'Tokelau'],
  ['TON', 'Tonga'],
  ['TTO', 'Trinidad and Tobago'],
  ['TUN', 'Tunisia'],
  ['TUR', 'Türkiye'],
  ['TKM', 'Turkmenistan'],
  ['TCA', 'Turks and Caicos Islands'],
  ['TUV', 'Tuvalu'],
  ['UGA', 'Uganda'],
  ['UKR', 'Ukraine'],
  ['ARE', 'United Arab Emirates'],
  ['GBR', 'United Kingdom of Great Britain and Northern Ireland'],
  ['USA', 'United States of America'],
  ['UMI', 'United States Minor Outlying Islands'],
  ['URY', 'Uruguay'],
  ['UZB', 'Uzbekistan'],
  ['VUT', 'Vanuatu'],
  ['VEN', 'Venezuela (Bolivarian Republic of)'],
  ['VNM', 'Viet Nam'],
  ['VGB', 'Virgin Islands (British)'],
  ['VIR', 'Virgin Islands (U.S.)'],
  ['WLF', 'Wallis and Futuna'],
  ['ESH', 'Western Sahara'],
  ['YEM', 'Yemen'],
  ['ZMB', 'Zambia'],
  ['ZWE', 'Zimbabwe'],
];

const otherCountries = options(COUNTRIES.filter(([code]) => code !== UNITED_STATES));
const unitedStates: OptionItem = {
  value: UNITED_STATES,
  label: optionLabel(options(COUNTRIES), UNITED_STATES),
};

/** Every country, the United States first (where most applicants live), then A to Z. */
export const countryOptions: readonly OptionItem[] = [
  EMPTY_OPTION,
  unitedStates,
  ...otherCountries,
];

/** Every country but the United States: a country of citizenship for non-citizens. */
export const countryOptionsWithoutUS: readonly OptionItem[] = [EMPTY_OPTION, ...otherCountries];

// ---------------------------------------------------------------------------------------------
// States, territories, armed-forces areas and provinces: USPS and Canada Post codes.

const US_STATES: Pairs = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
];

const US_TERRITORIES: Pairs = [
  ['AS', 'American Samoa'],
  ['GU', 'Guam'],
  ['MP', 'Northern Mariana Islands'],
  ['PR', 'Puerto Rico'],
  ['VI', 'U.S. Virgin Islands'],
];

const ARMED_FORCES_AREAS: Pairs = [
  ['AA', 'Armed Forces Americas (AA)'],
  ['AE', 'Armed Forces Europe, Middle East, Africa and Canada (AE)'],
  ['AP', 'Armed Forces Pacific (AP)'],
];

const CANADIAN_PROVINCES: Pairs = [
  ['AB', 'Alberta'],
  ['BC', 'British Columbia'],
  ['MB', 'Manitoba'],
  ['NB', 'New Brunswick'],
  ['NL', 'Newfoundland and Labrador'],
  ['NS', 'Nova Scotia'],
  ['NT', 'Northwest Territories'],
  ['NU', 'Nunavut'],
  ['ON', 'Ontario'],
  ['PE', 'Prince Edward Island'],
  ['QC', 'Quebec'],
  ['SK', 'Saskatchewan'],
  ['YT', 'Yukon'],
];

export const usStateOptions: readonly OptionItem[] = selectList([
  ...US_STATES,
  ...US_TERRITORIES,
  ...ARMED_FORCES_AREAS,
]);
export const canadianProvinceOptions: readonly OptionItem[] = selectList(CANADIAN_PROVINCES);

/** US states and DC, territories, armed-forces areas, then Canadian provinces and territories. */
export const stateProvinceOptions: readonly OptionItem[] = selectList([
  ...US_STATES,
  ...US_TERRITORIES,
  ...ARMED_FORCES_AREAS,
  ...CANADIAN_PROVINCES,
]);

// ---------------------------------------------------------------------------------------------
// Months and years.

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** '1' to '12' as January to December. */
export const monthOptions: readonly OptionItem[] = [
  EMPTY_OPTION,
  ...MONTH_NAMES.map((label, index) => ({ value: String(index + 1), label })),
];

// ---------------------------------------------------------------------------------------------
// Answers of the About You page.

/** Radio groups answered yes or no. */
export const yesNoOptions: readonly OptionItem[] = radioList([
  ['Y', 'Yes'],
  ['N', 'No'],
]);

export const genderOptions: readonly OptionItem[] = selectList([
  ['F', 'Female'],
  ['M', 'Male'],
  ['X', 'Nonbinary or another gender'],
  ['U', 'Prefer not to say'],
]);

export const suffixOptions: readonly OptionItem[] = selectList([
  ['JR', 'Jr.'],
  ['SR', 'Sr.'],
  ['II', 'II'],
  ['III', 'III'],
  ['IV', 'IV'],
  ['V', 'V'],
]);

export const namePrefixOptions: readonly OptionItem[] = selectList([
  ['MR', 'Mr.'],
  ['MRS', 'Mrs.'],
  ['MS', 'Ms.'],
  ['MX', 'Mx.'],
  ['DR', 'Dr.'],
]);

/** Citizenship types: 2, 3 and 4 need a country of citizenship (spec 001 section 5). */
export const CITIZENSHIP = {
  usCitizen: '1',
  permanentResident: '2',
  nonResident: '3',
  other: '4',
} as const;

export const citizenshipTypeOptions: readonly OptionItem[] = selectList([
  [CITIZENSHIP.usCitizen, 'U.S. citizen or U.S. national'],
  [CITIZENSHIP.permanentResident, 'U.S. permanent resident (green card holder)'],
  [CITIZENSHIP.nonResident, 'Not a U.S. citizen or permanent resident: I have or will need a visa'],
  [CITIZENSHIP.other, 'Other (for example refugee, asylee, DACA recipient or undocumented)'],
]);

export const visaStatusOptions: readonly OptionItem[] = selectList([
  ['F1', 'F-1 (student)'],
  ['J1', 'J-1 (exchange visitor)'],
  ['M1', 'M-1 (vocational student)'],
  ['H1B', 'H-1B (specialty occupation)'],
  ['H4', 'H-4 (dependant of an H visa holder)'],
  ['L2', 'L-2 (dependant of an L visa holder)'],
  ['E2', 'E-2 (treaty investor or dependant)'],
  ['B1B2', 'B-1/B-2 (visitor)'],
  ['NONE', 'I do not have a U.S. visa yet'],
  ['OTHER', 'Another visa or status'],
]);

export const ethnicityOptions: readonly OptionItem[] = radioList([
  ['Y', 'Yes, Hispanic or Latino'],
  ['N', 'No, not Hispanic or Latino'],
]);

export const militaryStatusOptions: readonly OptionItem[] = selectList([
  ['ACTIVE', 'Active duty'],
  ['RESERVE', 'Reserve'],
  ['GUARD', 'National Guard'],
  ['VETERAN', 'Veteran (separated or discharged)'],
  ['RETIRED', 'Retired'],
]);

export const militaryBranchOptions: readonly OptionItem[] = selectList([
  ['ARMY', 'U.S. Army'],
  ['NAVY', 'U.S. Navy'],
  ['AIR_FORCE', 'U.S. Air Force'],
  ['MARINES', 'U.S. Marine Corps'],
  ['COAST_GUARD', 'U.S. Coast Guard'],
  ['SPACE_FORCE', 'U.S. Space Force'],
  ['ARMY_GUARD', 'Army National Guard'],
  ['AIR_GUARD', 'Air National Guard'],
]);

export const familyRelationshipOptions: readonly OptionItem[] = selectList([
  ['MOTHER', 'Mother'],
  ['FATHER', 'Father'],
  ['PARENT', 'Parent'],
  ['STEPPARENT', 'Stepparent'],
  ['GUARDIAN', 'Legal guardian'],
  ['GRANDPARENT', 'Grandparent'],
  ['SPOUSE', 'Spouse or partner'],
  ['SIBLING', 'Brother or sister'],
  ['OTHER', 'Other relative or contact'],
]);

export const legacyRelationshipOptions: readonly OptionItem[] = selectList([
  ['PARENT', 'Parent or stepparent'],
  ['GRANDPARENT', 'Grandparent'],
  ['SIBLING', 'Brother or sister'],
  ['SPOUSE', 'Spouse or partner'],
  ['AUNT_UNCLE', 'Aunt or uncle'],
  ['COUSIN', 'Cousin'],
  ['CHILD', 'Son or daughter'],
  ['OTHER', 'Other relative'],
]);

/** Education levels with some college, for which a family member's college is asked. */
export const COLLEGE_EDUCATION_LEVELS: readonly string[] = [
  'SOME_COLLEGE',
  'ASSOCIATE',
  'BACHELOR',
  'MASTER',
  'DOCTORATE',
];

export const educationLevelOptions: readonly OptionItem[] = selectList([
  ['NONE', 'No formal education'],
  ['SOME_HS', 'Some high school'],
  ['HS', 'High school diploma or GED'],
  ['SOME_COLLEGE', 'Some college, no degree'],
  ['ASSOCIATE', 'Associate degree'],
  ['BACHELOR', "Bachelor's degree"],
  ['MASTER', "Master's degree"],
  ['DOCTORATE', 'Doctorate or professional degree'],
  ['UNKNOWN', "I don't know"],
  ['OTHER', 'Other'],
]);

export const communicationPreferenceOptions: readonly OptionItem[] = radioList([
  ['EMAIL', 'Email'],
  ['MAIL', 'Postal mail'],
  ['BOTH', 'Email and postal mail'],
  ['NONE', 'Please do not contact my family'],
]);

// ---------------------------------------------------------------------------------------------
// Answers of the Your Academics page.

/** The program codes with rules of their own (spec 001 sections 5 and 9). */
export const MAJOR = {
  nursing: '6',
  rnToBsn: '7',
  cardiopulmonary: '313',
  respiratoryTherapy: '748',
  film: '338',
  humanServices: 'J100',
} as const;
export const SPECIAL_MAJOR_CODES: readonly string[] = Object.values(MAJOR);

/** Program codes without special rules that still have concentrations. */
export const BIOLOGY = '202';
export const BUSINESS = '203';
export const COMMUNICATION = '204';
/** A program with no rules of its own. */
export const PSYCHOLOGY = '209';

export const majorOptions: readonly OptionItem[] = selectList([
  ['201', 'Accounting (B.S.)'],
  [BIOLOGY, 'Biology (B.S.)'],
  [BUSINESS, 'Business Administration (B.S.)'],
  [MAJOR.cardiopulmonary, 'Cardiopulmonary Sciences: Respiratory Therapy (B.S.)'],
  [COMMUNICATION, 'Communication (B.S.)'],
  ['205', 'Computer Science (B.S.)'],
  ['206', 'Criminal Justice (B.S.)'],
  ['207', 'Exercise and Sport Science (B.S.)'],
  [MAJOR.film, 'Film (B.A.)'],
  [MAJOR.humanServices, 'Human Services (B.S.)'],
  ['208', 'Marine Biology (B.S.)'],
  [MAJOR.nursing, 'Nursing (B.S.N.)'],
  [MAJOR.rnToBsn, 'Nursing: R.N. to B.S.N. (online)'],
  [PSYCHOLOGY, 'Psychology (B.S.)'],
  [MAJOR.respiratoryTherapy, 'Respiratory Therapy: R.R.T. to B.S. (online)'],
  ['210', 'Undecided: exploring programs'],
]);

export const humanServicesConcentrationOptions: readonly OptionItem[] = selectList([
  ['CHILD', 'Child and Youth Services'],
  ['FAMILY', 'Family Services'],
  ['GERONTOLOGY', 'Gerontology'],
  ['ADDICTION', 'Addiction Studies'],
  ['GENERAL', 'General Human Services'],
]);

export const biologyConcentrationOptions: readonly OptionItem[] = selectList([
  ['GENERAL', 'General Biology'],
  ['PRE_HEALTH', 'Pre-Health Professions'],
  ['ECOLOGY', 'Ecology and Evolution'],
]);

export const businessConcentrationOptions: readonly OptionItem[] = selectList([
  ['MANAGEMENT', 'Management'],
  ['MARKETING', 'Marketing'],
  ['FINANCE', 'Finance'],
  ['ENTREPRENEURSHIP', 'Entrepreneurship'],
]);

export const communicationConcentrationOptions: readonly OptionItem[] = selectList([
  ['JOURNALISM', 'Journalism'],
  ['PUBLIC_RELATIONS', 'Public Relations'],
  ['MEDIA', 'Media Production'],
]);

/** transfer_student_credits: T = college credits earned after high school graduation; F = none. */
export const transferCreditOptions: readonly OptionItem[] = radioList([
  ['T', 'Yes, I have earned college credits since graduating from high school'],
  ['F', 'No, I have not earned college credits since graduating from high school'],
]);

export const studyLocationOptions: readonly OptionItem[] = selectList([
  ['MAIN', 'Main campus'],
  ['REGIONAL', 'Regional campus'],
  ['ONLINE', 'Online'],
]);

/** The 6-credit prerequisite groups: done, under way, or not yet. */
export const creditStatusOptions: readonly OptionItem[] = radioList([
  ['Y', 'Yes, completed'],
  ['P', 'In progress'],
  ['N', 'Not yet'],
]);

const TERMS: ReadonlyArray<readonly [code: string, name: string, yearOffset: number]> = [
  ['FA', 'Fall', 0],
  ['WI', 'Winter', 1],
  ['SU', 'Summer', 1],
  ['FA', 'Fall', 1],
];

/** Entry terms from this fall to next fall: values like 'FA2026', labels like 'Fall 2026'. */
export function entryTermOptions(currentYear: number): OptionItem[] {
  return [
    EMPTY_OPTION,
    ...TERMS.map(([code, name, offset]) => ({
      value: `${code}${currentYear + offset}`,
      label: `${name} ${currentYear + offset}`,
    })),
  ];
}

export const EARLY_DECISION = 'ED';

export const decisionTypeOptions: readonly OptionItem[] = selectList([
  ['REG', 'Regular decision (not binding)'],
  [EARLY_DECISION, 'Early decision (binding)'],
]);

/** high_school_diploma: GRAD requires the high school's name and graduation date. */
export const HIGH_SCHOOL_GRADUATE = 'GRAD';

export const diplomaOptions: readonly OptionItem[] = radioList([
  [HIGH_SCHOOL_GRADUATE, 'High school diploma (earned or expected)'],
  ['GED', 'GED or a state high school equivalency certificate'],
  ['HOME', 'Home-school diploma'],
  ['NONE', 'None of these'],
]);

export const gpaScaleOptions: readonly OptionItem[] = selectList([
  ['4', '4.0'],
  ['5', '5.0'],
  ['10', '10'],
  ['100', '100'],
  ['OTHER', 'Other'],
]);

export const OTHER = 'OTHER';

export const collegeTypeOptions: readonly OptionItem[] = selectList([
  ['TWO_YEAR', 'Community, state or junior college (two-year)'],
  ['FOUR_YEAR', 'College or university (four-year)'],
  ['TECHNICAL', 'Technical or vocational school'],
  ['MILITARY', 'Military education'],
  [OTHER, 'Other'],
]);

export const degreeOptions: readonly OptionItem[] = selectList([
  ['NONE', 'No degree'],
  ['AA', 'Associate of Arts (A.A.)'],
  ['AS', 'Associate of Science (A.S.)'],
  ['AAS', 'Associate of Applied Science (A.A.S.)'],
  ['BA', 'Bachelor of Arts (B.A.)'],
  ['BS', 'Bachelor of Science (B.S.)'],
  ['CERT', 'Certificate'],
  [OTHER, 'Other'],
]);

// ---------------------------------------------------------------------------------------------
// Answers of the Final Steps page.

export const counselorWaiverOptions: readonly OptionItem[] = radioList([
  ['Y', 'Yes, I waive my right to see them'],
  ['N', 'No, I do not waive my right to see them'],
]);
