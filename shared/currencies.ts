/**
 * The currencies a deal, a product price, a line item or the account may be
 * in: the ISO 4217 codes of currencies in use (the list maintained by SIX,
 * amendment of 2025, with the Caribbean guilder XCG in place of ANG and ZWG
 * in place of ZWL), each with its English name and its minor units (the
 * digits after the decimal point: 2 for USD, 0 for JPY, 3 for KWD).
 *
 * A fixed table, not Intl.supportedValuesOf('currency'): that list comes from
 * the ICU of whichever Node or browser runs, and includes withdrawn codes, so
 * a hub and a replica on different versions would disagree about what is a
 * currency. Codes that name no money a deal is priced in are left out: fund
 * codes (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW), precious metals (XAU,
 * XAG, XPD, XPT), bond-market units (XBA–XBD), XDR, XSU, XUA, and the
 * testing and "no currency" codes XTS and XXX.
 */

/** Code → [English name, minor units]. */
const TABLE: Record<string, readonly [name: string, minorUnits: number]> = {
  AED: ["United Arab Emirates Dirham", 2],
  AFN: ["Afghan Afghani", 2],
  ALL: ["Albanian Lek", 2],
  AMD: ["Armenian Dram", 2],
  AOA: ["Angolan Kwanza", 2],
  ARS: ["Argentine Peso", 2],
  AUD: ["Australian Dollar", 2],
  AWG: ["Aruban Florin", 2],
  AZN: ["Azerbaijani Manat", 2],
  BAM: ["Bosnia-Herzegovina Convertible Mark", 2],
  BBD: ["Barbadian Dollar", 2],
  BDT: ["Bangladeshi Taka", 2],
  BGN: ["Bulgarian Lev", 2],
  BHD: ["Bahraini Dinar", 3],
  BIF: ["Burundian Franc", 0],
  BMD: ["Bermudan Dollar", 2],
  BND: ["Brunei Dollar", 2],
  BOB: ["Bolivian Boliviano", 2],
  BRL: ["Brazilian Real", 2],
  BSD: ["Bahamian Dollar", 2],
  BTN: ["Bhutanese Ngultrum", 2],
  BWP: ["Botswanan Pula", 2],
  BYN: ["Belarusian Ruble", 2],
  BZD: ["Belize Dollar", 2],
  CAD: ["Canadian Dollar", 2],
  CDF: ["Congolese Franc", 2],
  CHF: ["Swiss Franc", 2],
  CLP: ["Chilean Peso", 0],
  CNY: ["Chinese Yuan", 2],
  COP: ["Colombian Peso", 2],
  CRC: ["Costa Rican Colón", 2],
  CUP: ["Cuban Peso", 2],
  CVE: ["Cape Verdean Escudo", 2],
  CZK: ["Czech Koruna", 2],
  DJF: ["Djiboutian Franc", 0],
  DKK: ["Danish Krone", 2],
  DOP: ["Dominican Peso", 2],
  DZD: ["Algerian Dinar", 2],
  EGP: ["Egyptian Pound", 2],
  ERN: ["Eritrean Nakfa", 2],
  ETB: ["Ethiopian Birr", 2],
  EUR: ["Euro", 2],
  FJD: ["Fijian Dollar", 2],
  FKP: ["Falkland Islands Pound", 2],
  GBP: ["British Pound", 2],
  GEL: ["Georgian Lari", 2],
  GHS: ["Ghanaian Cedi", 2],
  GIP: ["Gibraltar Pound", 2],
  GMD: ["Gambian Dalasi", 2],
  GNF: ["Guinean Franc", 0],
  GTQ: ["Guatemalan Quetzal", 2],
  GYD: ["Guyanaese Dollar", 2],
  HKD: ["Hong Kong Dollar", 2],
  HNL: ["Honduran Lempira", 2],
  HTG: ["Haitian Gourde", 2],
  HUF: ["Hungarian Forint", 2],
  IDR: ["Indonesian Rupiah", 2],
  ILS: ["Israeli New Shekel", 2],
  INR: ["Indian Rupee", 2],
  IQD: ["Iraqi Dinar", 3],
  IRR: ["Iranian Rial", 2],
  ISK: ["Icelandic Króna", 0],
  JMD: ["Jamaican Dollar", 2],
  JOD: ["Jordanian Dinar", 3],
  JPY: ["Japanese Yen", 0],
  KES: ["Kenyan Shilling", 2],
  KGS: ["Kyrgyz Som", 2],
  KHR: ["Cambodian Riel", 2],
  KMF: ["Comorian Franc", 0],
  KPW: ["North Korean Won", 2],
  KRW: ["South Korean Won", 0],
  KWD: ["Kuwaiti Dinar", 3],
  KYD: ["Cayman Islands Dollar", 2],
  KZT: ["Kazakhstani Tenge", 2],
  LAK: ["Laotian Kip", 2],
  LBP: ["Lebanese Pound", 2],
  LKR: ["Sri Lankan Rupee", 2],
  LRD: ["Liberian Dollar", 2],
  LSL: ["Lesotho Loti", 2],
  LYD: ["Libyan Dinar", 3],
  MAD: ["Moroccan Dirham", 2],
  MDL: ["Moldovan Leu", 2],
  MGA: ["Malagasy Ariary", 2],
  MKD: ["Macedonian Denar", 2],
  MMK: ["Myanmar Kyat", 2],
  MNT: ["Mongolian Tugrik", 2],
  MOP: ["Macanese Pataca", 2],
  MRU: ["Mauritanian Ouguiya", 2],
  MUR: ["Mauritian Rupee", 2],
  MVR: ["Maldivian Rufiyaa", 2],
  MWK: ["Malawian Kwacha", 2],
  MXN: ["Mexican Peso", 2],
  MYR: ["Malaysian Ringgit", 2],
  MZN: ["Mozambican Metical", 2],
  NAD: ["Namibian Dollar", 2],
  NGN: ["Nigerian Naira", 2],
  NIO: ["Nicaraguan Córdoba", 2],
  NOK: ["Norwegian Krone", 2],
  NPR: ["Nepalese Rupee", 2],
  NZD: ["New Zealand Dollar", 2],
  OMR: ["Omani Rial", 3],
  PAB: ["Panamanian Balboa", 2],
  PEN: ["Peruvian Sol", 2],
  PGK: ["Papua New Guinean Kina", 2],
  PHP: ["Philippine Peso", 2],
  PKR: ["Pakistani Rupee", 2],
  PLN: ["Polish Zloty", 2],
  PYG: ["Paraguayan Guarani", 0],
  QAR: ["Qatari Riyal", 2],
  RON: ["Romanian Leu", 2],
  RSD: ["Serbian Dinar", 2],
  RUB: ["Russian Ruble", 2],
  RWF: ["Rwandan Franc", 0],
  SAR: ["Saudi Riyal", 2],
  SBD: ["Solomon Islands Dollar", 2],
  SCR: ["Seychellois Rupee", 2],
  SDG: ["Sudanese Pound", 2],
  SEK: ["Swedish Krona", 2],
  SGD: ["Singapore Dollar", 2],
  SHP: ["St. Helena Pound", 2],
  SLE: ["Sierra Leonean Leone", 2],
  SOS: ["Somali Shilling", 2],
  SRD: ["Surinamese Dollar", 2],
  SSP: ["South Sudanese Pound", 2],
  STN: ["São Tomé & Príncipe Dobra", 2],
  SVC: ["Salvadoran Colón", 2],
  SYP: ["Syrian Pound", 2],
  SZL: ["Swazi Lilangeni", 2],
  THB: ["Thai Baht", 2],
  TJS: ["Tajikistani Somoni", 2],
  TMT: ["Turkmenistani Manat", 2],
  TND: ["Tunisian Dinar", 3],
  TOP: ["Tongan Paʻanga", 2],
  TRY: ["Turkish Lira", 2],
  TTD: ["Trinidad & Tobago Dollar", 2],
  TWD: ["New Taiwan Dollar", 2],
  TZS: ["Tanzanian Shilling", 2],
  UAH: ["Ukrainian Hryvnia", 2],
  UGX: ["Ugandan Shilling", 0],
  USD: ["US Dollar", 2],
  UYU: ["Uruguayan Peso", 2],
  UZS: ["Uzbekistani Som", 2],
  VED: ["Venezuelan Bolívar Digital", 2],
  VES: ["Venezuelan Bolívar", 2],
  VND: ["Vietnamese Dong", 0],
  VUV: ["Vanuatu Vatu", 0],
  WST: ["Samoan Tala", 2],
  XAF: ["Central African CFA Franc", 0],
  XCD: ["East Caribbean Dollar", 2],
  XCG: ["Caribbean Guilder", 2],
  XOF: ["West African CFA Franc", 0],
  XPF: ["CFP Franc", 0],
  YER: ["Yemeni Rial", 2],
  ZAR: ["South African Rand", 2],
  ZMW: ["Zambian Kwacha", 2],
  ZWG: ["Zimbabwe Gold", 2],
};

export interface Currency {
  code: string;
  name: string;
  /** Digits after the decimal point in the currency's smallest unit (cents: 2). */
  minorUnits: number;
}

/** Every listed currency, by code. */
export const CURRENCIES: readonly Currency[] = Object.entries(TABLE).map(([code, [name, minorUnits]]) => ({ code, name, minorUnits }));

const BY_CODE = new Map(CURRENCIES.map((c) => [c.code, c]));

/** Whether the code (upper case, as stored) is a listed currency. */
export function isCurrency(code: string): boolean {
  return BY_CODE.has(code);
}

/** The listed currency of a code, undefined for anything else. */
export function currencyOf(code: string): Currency | undefined {
  return BY_CODE.get(code);
}

/** Minor units of a code; 2 for a code not listed (a record written before the list was enforced). */
export function minorUnitsOf(code: string): number {
  return BY_CODE.get(code)?.minorUnits ?? 2;
}

/** The problem with a currency sent to the API, or null when it is a listed code. */
export function currencyProblem(code: string, field = 'currency'): string | null {
  return isCurrency(code) ? null : `${field} must be an ISO 4217 currency code in use (e.g. USD, EUR); ${JSON.stringify(code)} is not one.`;
}
