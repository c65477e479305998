/**
 * The words column names (and their dictionary descriptions) are made of, and what each word says about a column.
 * Learned from how established tools read names (Metabase's name classifiers, Data Formulator's semantic types) and
 * from the rules set of public environments; a word list, not a model, so every decision can name its word.
 */

/** Units of a span of time as a header writes them after a number (`1 Mo`, `30 Yr`, `13 weeks`); `m`, `d` and `y` alone are as often metres or a day and a year. */
const SPAN_UNIT_WORDS: Record<string, string> = { mo: 'month', mos: 'month', mth: 'month', mths: 'month', month: 'month', months: 'month', yr: 'year', yrs: 'year', year: 'year', years: 'year', wk: 'week', wks: 'week', week: 'week', weeks: 'week', day: 'day', days: 'day' };

/** A header that is a span of time and nothing else (`1 Mo`, `1.5 Mo`, `10 Yr`; sanitized `t_1_5_mo`): its amount and unit. */
export function spanOfTime(header: string): { amount: string; unit: string } | undefined {
  const m = /^t?[ _]?(\d+)(?:[._ ](\d+))?[ _-]?([a-z]+)$/i.exec(header.trim());
  const unit = m ? SPAN_UNIT_WORDS[m[3].toLowerCase()] : undefined;
  return m && unit ? { amount: m[2] ? `${m[1]}.${m[2]}` : m[1], unit } : undefined;
}

/** `order_total` → [order, total]; `UnitPrice` → [unit, price]; `FTHG` → [fthg]; `life_expect` → [life, expect]. */
export function nameTokens(name: string): string[] {
  return name
    // Accents are dropped, not split on (`Année` is `annee`, `Région` is `region`).
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    // A number after a word of four letters or more numbers it (`team1`, `goals2`); `co2`, `iso3` stay whole.
    .replace(/([A-Za-z]{4,})(\d+)(?=$|[^A-Za-z0-9])/g, '$1 $2')
    // A numbered key (`projectID1`, `tag_id2`): the key word and its number.
    .replace(/(^|[^A-Za-z])(id|ID|Id)(\d+)(?=$|[^A-Za-z0-9])/g, '$1$2 $3')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9%]+/)
    .filter((t) => t.length > 0)
    .flatMap(unglued);
}

/**
 * The noun of an `id` glued to it, as an API writes a key (`appid` → app, `userid` → user); undefined for a word
 * that only ends so (`acid`, `paid`, `fluid`, `android`).
 */
export function gluedIdNoun(token: string): string | undefined {
  const m = /^([a-z]{2,8})id$/.exec(token);
  if (!m || /(ac|pa|val|hum|sol|rap|flu|hybr|cov|squ|andro|pyram|vo|sa|ra|gr|orch|lip|ster|tablo|astero|thyro|opio|myelo|collo|liqu|mermai|fet|luc|plac|cup|morb|tim|viv|ins|ar|ma|hol|sord|stup|tor|vap)id$/.test(token)) return undefined;
  return m[1];
}

/** Words an API glues to the end of a lower-case name (`stationcode`, `numdocksavailable`). */
const GLUED_LAST_WORDS = /^([a-z]{4,}?)(available|code|name|count|total|number)$/;

/**
 * A long lower-case token glued from words (`stationcode` → station code, `numbikesavailable` → num bikes
 * available): the last word and a leading `num` come off. Short ones stay (`barcode`, `postcode`, `username`), and so
 * do words of their own (`unavailable`, `numerous`).
 */
export function unglued(token: string): string[] {
  if (token.length < 10 || !/^[a-z]+$/.test(token)) return [token];
  const last = GLUED_LAST_WORDS.exec(token);
  if (!last || (last[2] === 'available' && last[1].endsWith('un'))) return [token];
  const num = /^num(?!ber|er|eric|eral|erous)([a-z]{4,})$/.exec(last[1]);
  return num ? ['num', num[1], last[2]] : [last[1], last[2]];
}

/** Tokens of free text (a description): words only, lower-cased. */
export function textTokens(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9%]+/).filter((t) => t.length > 0);
}

const set = (words: string) => new Set(words.split(/\s+/).filter(Boolean));

/** Words after a name that say it is written short (`party_ab`, `state_abbr`). */
export const ABBREVIATION_WORDS = set('ab abbr abbrev abbreviation abbreviated');

/** Words that make a column an identifier or a code: `customer_id`, `sku`, `uuid`. */
// Catalogue numbers of publications and researchers (DOI, PubMed and PubMed Central ids, ISSN, ORCID, arXiv) identify
// an article, a journal or a person, however they are stored. A URN is a unique reference number (a register's key
// for a school, a charity, a provider) or a uniform resource name.
export const IDENTIFIER_WORDS = set('id ids key pk fk uuid guid uid recid docid sku catno accession cik ein lei isin cusip figi iso639 glottocode isbn ean upc iata icao ssn nid gtin hash username login userid doi pmid pmcid issn eissn orcid arxiv urn viaf isni taxid duns uei objectid globalid');
/** Identifier words that also end code-like names: `country_code` is geo, `account_code` an identifier. */
export const CODE_WORDS = set('code cd no nr num number ref reference nummer numero koodi kood kode');
/**
 * Codes of a standard classification (occupations: SOC, ISCO, O*NET; industries: NAICS, SIC, NACE, ISIC, ANZSIC;
 * programmes of study: CIP; coordinate reference systems: SRID, EPSG), with a level's digits (`soc3`, `naics_2`):
 * each value identifies a class of the classification.
 */
export const CLASSIFICATION_CODE = /^(soc|isco|onet|naics|sic|nace|isic|anzsic|anzsco|cip|srid|epsg)\d?$/;

export const TIME_WORDS = set('date dates time timestamp datetime dt ts year years yr month months mon week weeks weekday quarter qtr day days hour hours period season created updated modified jahr jaar datum monat maand');
/** Suffixes of event-time names: `ordered_at`, `opened_on`. */
export const TIME_SUFFIXES = set('at on');

export const GEO_WORDS: Record<string, 'latitude' | 'longitude' | 'country' | 'state' | 'county' | 'city' | 'postal-code' | 'address' | 'region'> = {
  lat: 'latitude',
  // A UTM grid zone (`13Q`): the area a projected coordinate is in.
  utm: 'region',
  latitude: 'latitude',
  lon: 'longitude',
  lng: 'longitude',
  long: 'longitude',
  longitude: 'longitude',
  country: 'country',
  countries: 'country',
  nation: 'country',
  iso3: 'country',
  iso2: 'country',
  state: 'state',
  // Plurals: a cell that names several (`ND; SD`) or says `Multi`.
  states: 'state',
  counties: 'county',
  cities: 'city',
  regions: 'region',
  // A sea's or a land's ecological region (ICES's `ecoregion` "Azores", "Norwegian Sea"): an area.
  ecoregion: 'region',
  ecoregions: 'region',
  // A country's subdivision (IMD's meteorological `subdivision` "Coastal Karnataka"; an ISO 3166-2 subdivision).
  subdivision: 'region',
  subdivisions: 'region',
  // The US Census Bureau's statistical areas: an urbanized area (`uza`), a metropolitan (`msa`) or core-based
  // statistical area (`cbsa`): a place, named or coded.
  uza: 'region',
  msa: 'region',
  cbsa: 'region',
  provinces: 'state',
  province: 'state',
  county: 'county',
  district: 'county',
  city: 'city',
  town: 'city',
  village: 'city',
  municipality: 'city',
  borough: 'city',
  commune: 'city',
  // (Paris's `nom_arrondissement_communes`: the arrondissement of Paris, or the commune beyond it, a station is in.)
  communes: 'city',
  arrondissement: 'county',
  arrondissements: 'county',
  municipalities: 'city',
  prefecture: 'state',
  canton: 'state',
  // An area of a statistical geography (`geography_name`, `geography_code`).
  geography: 'region',
  // Britain's census geographies: middle and lower layer super output areas (`msoa_name` County Durham 001).
  msoa: 'region',
  lsoa: 'region',
  // The same in German, Dutch, French, Italian and Spanish headers of official statistics.
  gebiet: 'region',
  kanton: 'state',
  gemeinde: 'city',
  bezirk: 'county',
  bundesland: 'state',
  gemeente: 'city',
  provincie: 'state',
  pays: 'country',
  provincia: 'state',
  regione: 'region',
  comune: 'city',
  municipio: 'city',
  // …and Catalan: a municipality, a city district, a neighbourhood; latitude and longitude in Spanish and Catalan.
  municipi: 'city',
  districte: 'county',
  barri: 'region',
  barrio: 'region',
  latitud: 'latitude',
  longitud: 'longitude',
  // Latitude and longitude in decimal degrees, written short as GIS exports do (`DDLAT`, `DDLONG`).
  ddlat: 'latitude',
  ddlon: 'longitude',
  ddlong: 'longitude',
  // Scandinavian and Finnish administrative areas: a municipality (`kommun`, `kommune`, `kunta`), a county (`fylke`), a region (`maakunta`, `landskap`).
  kommun: 'city',
  kommune: 'city',
  kommuner: 'city',
  kunta: 'city',
  fylke: 'county',
  maakunta: 'region',
  landskap: 'region',
  parish: 'region',
  // The administrative units of South Asia: a sub-district (Bangladesh's upazila and union, Pakistan's and India's
  // tehsil and taluka, a mandal), a district (zila).
  upazila: 'county',
  upazilla: 'county',
  thana: 'county',
  tehsil: 'county',
  taluk: 'county',
  taluka: 'county',
  mandal: 'county',
  zila: 'county',
  zilla: 'county',
  // Waters: where fish are counted, samples taken.
  stream: 'region',
  river: 'region',
  creek: 'region',
  watershed: 'region',
  // Electoral areas.
  constituency: 'region',
  precinct: 'region',
  // A police beat (a patrol's area), a census tract (`census_tract` 5700.1012, a tract and its block group).
  beat: 'region',
  tract: 'region',
  zip: 'postal-code',
  zipcode: 'postal-code',
  postal: 'postal-code',
  postcode: 'postal-code',
  address: 'address',
  street: 'address',
  region: 'region',
  subregion: 'region',
  continent: 'region',
  territory: 'region',
  location: 'region',
  capital: 'city',
  // Statistical and census area codes: the EU's NUTS regions, US FIPS state and county codes.
  nuts: 'region',
  area: 'region',
  // Where an event takes place.
  venue: 'address',
  stadium: 'address',
  ground: 'address',
  fips: 'county',
  easting: 'longitude',
  northing: 'latitude',
};

/** A yes/no property: `is_active`, `discontinued`, `loyalty_member`. */
export const FLAG_PREFIXES = set('is has was can should did does allow allows');
// Past participles that say whether something happened to a row (a run `done`, a batch `removed`, a hit `validated`).
export const FLAG_WORDS = set('flag active enabled disabled discontinued deleted member verified approved preferred fulltime done removed validated completed archived hidden published present absent questionable');

/**
 * BibTeX's fields, as a table of references holds them (a reference manager's export, a bibliography loaded into a
 * database): what each one means there, where the same word means something else elsewhere (a `volume` of water, a
 * `number` of things). Journals, publishers and schools recur over references and are grouped by; a volume, an
 * issue or a chapter locates a work in its series; `pages` is a range (`182--193`); an edition is an order.
 */
export const BIBTEX_FIELDS: Record<string, 'venue' | 'locator' | 'page-range' | 'edition' | 'month' | 'page-count' | 'record-key' | 'link'> = {
  journal: 'venue', journaltitle: 'venue', booktitle: 'venue', publisher: 'venue', series: 'venue', school: 'venue', institution: 'venue', organization: 'venue', organisation: 'venue',
  volume: 'locator', number: 'locator', issue: 'locator', chapter: 'locator',
  pages: 'page-range', edition: 'edition', month: 'month', numpages: 'page-count',
  acmid: 'record-key', biburl: 'link', bibsource: 'link',
};

/** The fields that make a table one of references: BibTeX's, beside a title and an author. */
export const BIBTEX_MARKERS = set('journal booktitle publisher volume pages doi isbn issn edition howpublished bibtex entrytype');

/**
 * Nutrients and pigments a water sample is analysed for, written as a laboratory writes them (NERRS's `po4_f`,
 * `nh4_f`, `no23_f`, `chla_n`): a figure named by one alone is a concentration, with or without a probe beside it
 * (ANALYTES, in words, need one: `nitrogen` in tonnes is fertiliser used). (`Days NO2`, the days NO2 led, or `no2_emissions` in tonnes, count or weigh.)
 */
export const FORMULA_ANALYTES = set('po4 nh4 no2 no3 no23 nox sio4 srp tkn chla chl chlorophyll');

/** Ordered categories. */
export const ORDINAL_WORDS = set('rank ranking grade tier priority severity seed placing position lvl ord horizon ordinality');

/** The bins of a ranking (`income_decile` 1–10, `imd_quintile`): a position among equal parts, not a quantity. */
export const QUANTILE_BIN_WORDS = set('decile deciles quintile quintiles quartile quartiles tercile terciles tertile ventile ventiles');

/** Names and free text for people. */
export const TEXT_WORDS = set('name names title description desc comment comments note notes remark remarks summary text body message review caption bio details meaning label');
export const PERSON_NAME_WORDS = set('first last middle full given family surname firstname lastname fullname contact');

export const STRUCTURED_WORDS: Record<string, 'json' | 'url' | 'email' | 'phone' | 'path' | 'list' | 'version' | 'code'> = {
  // Well-known text (WKT): a geometry or a coordinate system written out.
  wkt: 'code',
  email: 'email',
  mail: 'email',
  url: 'url',
  uri: 'url',
  link: 'url',
  href: 'url',
  website: 'url',
  homepage: 'url',
  phone: 'phone',
  telephone: 'phone',
  tel: 'phone',
  fax: 'phone',
  mobile: 'phone',
  path: 'path',
  filename: 'path',
  json: 'json',
  version: 'version',
  features: 'list',
  tags: 'list',
};

export const BINARY_WORDS = set('picture photo image img blob thumbnail logo avatar binary bytes_data');

/** Words that name a category: a number in such a column is a code, not a quantity. */
/** People by what they do with the data (an `observer`, a `recorder`): whose initials look like codes of countries. */
export const PERSON_ROLE_WORDS = set('observer observers recorder recorders collector collectors surveyor surveyors technician analyst author authors editor editors reviewer reviewers enumerator interviewer initials staff');

/** Categories that are areas (a grid `zone`, a `ward`, a study `site`): named by a country, they are that place. */
export const SPATIAL_DIMENSION_WORDS = set('zone zones ward wards site sites station stations plot plots block blocks quadrat transect port ports');

export const DIMENSION_WORDS = set('type typ kind category class subclass superclass subcategory subtype subfamily superfamily group status segment cluster channel genre division direction source sector industry department dept mode method species genus family tribe gender sex team referee result outcome plot site station zone block stake ward quadrat transect lane room floor owner operator vendor contractor brand manufacturer port season tournament competition league basis model methd role medium');

// ---- measures and their additivity ----------------------------------------------------------------------------

/** Quantities that add up along every dimension (Kimball's additive facts). */
export const ADDITIVE_WORDS = set(
  'amount amt revenue sales sale total sum cost costs spend spent budget payment paid fee fees freight tax taxes profit expense expenses income ' +
    'qty quantity quantities count counts cnt units unit_count volume goals shots fouls corners cards points runs wins losses draws ' +
    'distance miles km duration minutes seconds milliseconds ms hours length bytes size generation emissions deaths cases births ' +
    'visits views clicks orders items refund refunds salary wage wages earnings receipts outlays precipitation precip prcp ppt rainfall snowfall snow ' +
    // An economy's output over a period.
    'gdp gnp gva exports imports ' +
    // Energy over a period (power, in MW, is the rate at an instant).
    'btu mwh kwh gwh twh therms',
);

/**
 * Flows of a period that grow year on year (an economy's output, a government's receipts and outlays): a series of
 * them that never decreases is growth, not a running total.
 */
export const PERIOD_FLOW_WORDS = set('gdp gnp gva revenue revenues receipts outlays income exports imports spending expenditure expenditures raised donations donated fundraising');

/** Levels measured at a moment: add across entities, not across time. */
export const SEMI_ADDITIVE_WORDS = set(
  'balance balances stock stocks inventory onhand hand headcount population pop capacity members subscribers outstanding backlog reserves level levels employees employment beginning ending opening closing owed debt debts cumulative cum cumu ytd running odometer ' +
    // People or things in a state at a moment (current cases, patients in hospital, pupils enrolled, assets held).
    'current currently hospitalised hospitalized inpatients confinement isolation occupied enrolled enrollment enrolment residents inhabitants households workforce staff volunteers contributors holdings assets liabilities remaining pending ' +
    // Stocks of an economy at a date: wealth, people employed or unemployed.
    'wealth employed unemployed ' +
    // Places to sit or sleep: a capacity (an aircraft's seats, a ship's berths), summed across things, not over time.
    'seats berths ' +
    // What a household holds at an interview: rooms and buildings, animals owned.
    'owned rooms bedrooms buildings ' +
    // Who is on a school's roll or staff at the census date, and the schools open then (official education counts).
    'pupils teachers fte schools ' +
    // Works in place at a date (a town's sewer outfalls, a company's branches): counted at a moment, like schools.
    'outfalls facilities branches ' +
    // Water held in a reservoir or a tank at the end of a day.
    'storage ' +
    // Vehicles in service at the peak (the NTD's `voms`, vehicles operated in maximum service) and a fleet's size:
    // counted at a moment, summed across operators, not over years.
    'voms fleet',
);

/**
 * Units of a rate at an instant (power in MW, a river's flow in cusecs): the readings of several plants or
 * reservoirs at one moment add up, readings over time are averaged (energy, MWh, is what adds over time).
 */
export const RATE_UNIT_WORDS = set('mw kw gw megawatt megawatts kilowatt kilowatts gigawatt gigawatts cusecs cusec cumecs cfs');

/**
 * Words of a change over a period (new cases, daily admissions, the variation from the previous day): a flow,
 * which adds up over time even when it is said of a level ("new current positive cases").
 */
export const FLOW_WORDS = set(
  'new news daily change changes variation variations difference delta increase increases decrease decreases admissions admitted inflow inflows outflow outflows additions previous ' +
    // People counted as they pass a point in the period ("pupils completing key stage 4", "students graduating"): a flow.
    'completing completed leaving leavers entering entrants starting starters graduating graduates finishing discharged discharges',
);

/** Quantities that do not add up: average them, or take a ratio of sums. */
export const NON_ADDITIVE_WORDS = set(
  'price prices rate rates ratio ratios quotient quotients pct percent percentage percentages share shares avg average mean median score scores rating ratings ' +
    // A rate in French, Spanish and Italian (`Taux de régularité`, `tasa de paro`, `tasso`).
    'taux tasa tasso ' +
    // A place's climate over decades (WorldClim's bioclimatic variables, a climatology): a property of each place.
    'bioclimatic climatology climatological ' +
    // A mass-to-charge ratio (`mz`, `precursor_mz`), a compound's exact (monoisotopic) mass; an election's swing, the
    // change of a share in percentage points.
    'mz exactmass monoisotopic swing ' +
    // A change year over year or quarter over quarter (`yoy_population`), said as a percentage.
    'yoy qoq ' +
    // A model's coefficients and a distribution's spread (`sigma`, GAMLSS's coefficient of variation beside `mu`).
    'coefficient coefficients sigma ' +
    // An assembly's N50 and L50 (the contig length, and the number of contigs, that hold half of it): statistics.
    'n50 l50 n90 l90 ' +
    // Stable-isotope ratios in delta notation (`c13`, `d13c`, `d15n`, `d18o`), per mil against a standard.
    'c13 d13c d15n n15 d18o o18 d2h d34s ' +
    'temp temperature temperatures age index gini percap percapita ph millivolts velocity velocities parallax color colour salinity psu secchi flux fluxes margin probability prob density speed elevation altitude humidity pressure per capita gpa discount ele ' +
    // Weather readings written short (`humid`, `dewp`, `visib`), concentrations, readability scores.
    'humid dew dewp visib visibility concentration conc readability flesch kincaid gunning linsear smog coleman liau ' +
    // An election's majority: the winner's votes less the runner-up's, a margin.
    'majority ' +
    // Properties said per unit of mass (specific heat), fractions.
    'specific frac fraction fractions ' +
    // A moving average (a 13-month smoothed sunspot number); a boundary's length (neighbours share their borders).
    'smoothed perimeter ' +
    // A water-quality sonde's readings in their units (turbidity in FNU or NTU, fluorescence in RFU or QSU, dissolved
    // organic matter's fluorescence): a state of the water, averaged.
    'turbidity ntu fnu rfu qsu fdom fluorescence ' +
    // An epidemiologist's incidence and prevalence: cases per 100,000 people (`incidence14`, over fourteen days).
    'incidence prevalence ' +
    // A wait to vote or to be seen (`wait`, minutes, a survey's mean): each person's, averaged.
    'wait ' +
    'fertility expectancy expect life bmi height weight percentile quantile std stdev variance proportion normal normals efficiency mpg yield ' +
    'max min maximum minimum peak tmax tmin tavg availability utilization utilisation occupancy wind gust lat lon latitude longitude coordinate coordinates threshold limit depth voltage volt uncertainty error accuracy ex fx factor range bound bounds lower upper ' +
    // Errors and spreads of a forecast or a fit (root mean square error, the spread of the middle two-thirds).
    'rmse rmsd mse mae mape spread ' +
    // A percent sign in a header (`Annual % change`, `GDP (% of total)`).
    '% ' +
    // Physical properties of a thing (its mass, melting point, frequency, heading, width): never summed across things.
    // A tree's diameter at breast height (`dbh`), a diameter cut short (`dend_diam`).
    'dbh diam ' +
    'magmom magnetization magnetisation mass molar boil boiling melt melting freezing affinity electronegativity hz khz mhz ghz heading bearing angle azimuth deg degree degrees width diameter radius thickness wavelength viscosity conductivity magnitude concentration intensity luminosity odds ' +
    // How much of something is covered (cloud cover in eighths, a tree canopy's cover): a share. The moon's phase
    // (`Lunation`, per cent of its disc lit) too.
    'coverage cover lunation ' +
    // Solar radiation, a power on an area (W/m²), read as a day's average; irradiance.
    'radiation irradiance ' +
    // The planetary K index of a geomagnetic storm (`kp_index`, `kp_90`, 0–9); a tilt, an angle.
    'kp tilt ' +
    // Parts of an animal's body, measured on each one caught (a bird's tarsus and wing, a bat's forearm).
    'tarsus culmen wing wingspan forearm hindfoot ' +
    // A community's diversity in one sample (alpha diversity, `adiv_`: Shannon's and Simpson's indices, Chao1,
    // species richness, evenness): taxa overlap between samples, so no sum of them means anything.
    'diversity adiv bdiv shannon simpson chao1 richness evenness',
);

/**
 * Non-additive only at the head of a name: a height cut short (`dend_ht`), readings of a signal or an instrument
 * (strength in dB, noise, a standard deviation, a residual, an earthquake's magnitude, an altitude, a battery's charge)
 * and price indices and inflation; the ends of a range (`downlink_low`, `uplink_high`), a frequency's drift and a
 * symbol rate (`baud`). Before another word they qualify it: `noise_complaints` and `battery_sales` add up,
 * `inflation_adjusted_gross` too.
 */
export const HEAD_NON_ADDITIVE_WORDS = set('ht mag signal sig noise snr rssi dbm sd rms alt battery cpi ppi hicp rpi deflator defl inflation infl low high drift baud');

/** Unit words: what a number is measured in. */
export const UNIT_WORDS: Record<string, { kind: 'currency' | 'percent' | 'count' | 'duration' | 'distance' | 'temperature' | 'weight' | 'area' | 'volume' | 'speed'; label: string }> = {
  usd: { kind: 'currency', label: 'USD' },
  eur: { kind: 'currency', label: 'EUR' },
  gbp: { kind: 'currency', label: 'GBP' },
  dollars: { kind: 'currency', label: 'USD' },
  '%': { kind: 'percent', label: '%' },
  pct: { kind: 'percent', label: '%' },
  percent: { kind: 'percent', label: '%' },
  percentage: { kind: 'percent', label: '%' },
  minutes: { kind: 'duration', label: 'minutes' },
  mins: { kind: 'duration', label: 'minutes' },
  seconds: { kind: 'duration', label: 'seconds' },
  secs: { kind: 'duration', label: 'seconds' },
  milliseconds: { kind: 'duration', label: 'milliseconds' },
  ms: { kind: 'duration', label: 'milliseconds' },
  hours: { kind: 'duration', label: 'hours' },
  days: { kind: 'duration', label: 'days' },
  km: { kind: 'distance', label: 'km' },
  miles: { kind: 'distance', label: 'miles' },
  mi: { kind: 'distance', label: 'miles' },
  meters: { kind: 'distance', label: 'm' },
  metres: { kind: 'distance', label: 'm' },
  mm: { kind: 'distance', label: 'mm' },
  cm: { kind: 'distance', label: 'cm' },
  celsius: { kind: 'temperature', label: '°C' },
  fahrenheit: { kind: 'temperature', label: '°F' },
  kg: { kind: 'weight', label: 'kg' },
  lbs: { kind: 'weight', label: 'lb' },
  lb: { kind: 'weight', label: 'lb' },
  grams: { kind: 'weight', label: 'g' },
  mph: { kind: 'speed', label: 'mph' },
  kph: { kind: 'speed', label: 'km/h' },
};

/** Money words: an amount in one of these is in a currency, even when the name does not say which. */
export const MONEY_WORDS = set('amount amt revenue sales price cost costs spend spent budget payment paid fee fees freight tax profit expense income salary wage wages earnings refund receipts outlays gdp');
export const COUNT_WORDS = set('count counts cnt qty quantity quantities number num units goals shots fouls corners cards visits views clicks orders items deaths cases births votes events');
export const DURATION_WORDS = set('duration length minutes seconds milliseconds hours days');
export const TEMPERATURE_WORDS = set('temp temperature temperatures tmax tmin tavg');

/** Calendar names. */
/** A month's name or its abbreviation as a name's token (`netgen_january`, `…_dec`). */
export const MONTH_TOKEN = /^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december)$/;

/**
 * Where a name's or a description's words say a total so far: the `to` of "… to date" or "… to (the) period('s) end"
 * (`gross_outlay_amount_fyb_to_period_end`, `cases_to_date`); -1 when they do not.
 */
export function totalSoFarAt(words: readonly string[]): number {
  return words.findIndex((w, at) => w === 'to' && at > 0 && (words[at + 1] === 'date' || (words[at + 1] === 'period' && words[at + 2] === 'end')));
}

export const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
export const WEEKDAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Ordered scales whose values give an ordinal away (`low` < `medium` < `high`). */
export const ORDINAL_SCALES: string[][] = [
  ['low', 'medium', 'high'],
  ['low', 'mid', 'high'],
  ['very low', 'low', 'medium', 'high', 'very high'],
  // A figure's level against the rest (a location quotient's label): `average` in the middle.
  ['very low', 'low', 'average', 'high', 'very high'],
  ['below average', 'average', 'above average'],
  ['xs', 's', 'm', 'l', 'xl', 'xxl'],
  ['small', 'medium', 'large'],
  ['poor', 'fair', 'good', 'very good', 'excellent'],
  ['bronze', 'silver', 'gold', 'platinum'],
  ['none', 'mild', 'moderate', 'severe'],
  // A clinical severity (PHQ-9's depression categories: none, mild, moderate, moderately severe, severe).
  ['none', 'minimal', 'mild', 'moderate', 'moderately severe', 'moderately severe to severe', 'severe', 'very severe', 'extreme'],
  ['none', 'trace', 'light', 'moderate', 'heavy'],
  ['beginner', 'intermediate', 'advanced', 'expert'],
  ['junior', 'mid', 'senior', 'lead'],
  ['first', 'second', 'third', 'fourth'],
  ['1st', '2nd', '3rd', '4th'],
  // Alert levels (an earthquake's PAGER alert, a RAG status): colours in order of severity.
  ['green', 'yellow', 'orange', 'red'],
  ['green', 'amber', 'red'],
  ['never', 'rarely', 'sometimes', 'often', 'always'],
  // A start-up's stage of funding or of growth, in order (`pre_seed`, `seed`, `series_a` … `mature`).
  ['idea', 'pre seed', 'pre_seed', 'pre-seed', 'preseed', 'seed', 'early stage', 'early_stage', 'early growth', 'early_growth', 'series a', 'series_a', 'series b', 'series_b', 'series c', 'series_c', 'series d', 'series_d', 'series e', 'series_e', 'growth', 'scale up', 'scale_up', 'scale-up', 'scaleup', 'late stage', 'late_stage', 'expansion', 'mature', 'maturity', 'ipo', 'public'],
  ['g', 'pg', 'pg-13', 'r', 'nc-17'],
  ['strongly disagree', 'disagree', 'neutral', 'agree', 'strongly agree'],
  // A change judged over a span of years ("Much worse" … "The same" … "Much better").
  // Darwin Core's degree of establishment of an organism where it was introduced (Groom et al. 2019), in order.
  ['native', 'captive', 'cultivated', 'released', 'failing', 'casual', 'reproducing', 'established', 'colonising', 'invasive', 'widespreadinvasive', 'widespread invasive'],
  // The IUCN Red List's categories, from least to most threatened.
  ['least concern', 'near threatened', 'vulnerable', 'endangered', 'critically endangered', 'extinct in the wild', 'extinct'],
  ['much worse', 'a bit worse', 'slightly worse', 'worse', 'the same', 'same', 'no change', 'better', 'slightly better', 'a bit better', 'much better'],
];

/**
 * Words of a direction of change, in order (fall, hold, rise): sentences that differ by one of them ("Employment is
 * projected to rise by 2020", "… to fall by 2020", "… to remain steady until 2020") are an ordered outlook.
 */
export const DIRECTION_LEVELS: ReadonlyArray<readonly string[]> = [
  ['fall', 'falls', 'falling', 'decrease', 'decreases', 'decreasing', 'decline', 'declines', 'declining', 'shrink', 'shrinking', 'worsen', 'worsening'],
  ['steady', 'stable', 'unchanged', 'flat'],
  ['rise', 'rises', 'rising', 'increase', 'increases', 'increasing', 'grow', 'grows', 'growing', 'improve', 'improving'],
];

/** Two-valued answers to a yes/no question. */
/**
 * Yes, then no, in Spanish and Catalan, French (Vélib's `is_renting`: `OUI` / `NON`), German, Dutch, the Nordic
 * languages, Polish and Portuguese: read as a yes/no here, and said as a mark by the task pool.
 */
export const OTHER_LANGUAGES_YES_NO: ReadonlyArray<readonly [string, string]> = [
  ['si', 'no'],
  ['sí', 'no'],
  ['oui', 'non'],
  ['ja', 'nein'],
  ['ja', 'nee'],
  ['ja', 'nej'],
  ['ja', 'nei'],
  ['tak', 'nie'],
  ['sim', 'não'],
];

export const YES_NO_PAIRS: Array<[string, string]> = [
  ['0', '1'],
  ['0.0', '1.0'],
  ['true', 'false'],
  ['t', 'f'],
  ['y', 'n'],
  ['yes', 'no'],
  // Present or absent (a louse, a fin): `P` / `A` as field sheets write them.
  ['present', 'absent'],
  ['p', 'a'],
  // Valid or not (`V` / `N`, as Barcelona's air-quality files mark each hour's reading); yes or no in Spanish and Catalan.
  ['v', 'n'],
  ...OTHER_LANGUAGES_YES_NO.map(([yes, no]): [string, string] => [yes, no]),
];

/** Language codes that key a JSON value's translations (`name.en`, `name.se`, `name.no`), and the language each names. */
export const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  en: 'English', de: 'German', fr: 'French', es: 'Spanish', it: 'Italian', nl: 'Dutch', pt: 'Portuguese', sv: 'Swedish', se: 'Swedish', no: 'Norwegian', nb: 'Norwegian', nn: 'Norwegian',
  da: 'Danish', fi: 'Finnish', is: 'Icelandic', pl: 'Polish', cs: 'Czech', ru: 'Russian', ja: 'Japanese', zh: 'Chinese', ko: 'Korean', ar: 'Arabic', he: 'Hebrew', tr: 'Turkish',
  el: 'Greek', ca: 'Catalan', eu: 'Basque', ga: 'Irish', cy: 'Welsh',
  // ISO 639-2's three letters (Camtrap DP's `vernacularNames.eng` beside `vernacularNames.nld`).
  eng: 'English', deu: 'German', ger: 'German', fra: 'French', fre: 'French', spa: 'Spanish', ita: 'Italian', nld: 'Dutch', dut: 'Dutch', por: 'Portuguese', swe: 'Swedish',
  nor: 'Norwegian', dan: 'Danish', fin: 'Finnish', isl: 'Icelandic', pol: 'Polish', ces: 'Czech', rus: 'Russian', jpn: 'Japanese', zho: 'Chinese', kor: 'Korean', ara: 'Arabic', cat: 'Catalan', cym: 'Welsh',
};

/**
 * The language a dotted column name's last part names (`knownName.no`: Norwegian), when another of the table's columns
 * (`names`, their original names) gives the same value in another language (`knownName.en`); undefined otherwise.
 */
export function translationLanguage(names: readonly string[], original: string): string | undefined {
  const dot = original.lastIndexOf('.');
  const language = dot > 0 ? LANGUAGE_NAMES[original.slice(dot + 1).toLowerCase()] : undefined;
  if (!language) return undefined;
  const stem = original.slice(0, dot + 1);
  return names.some((n) => n !== original && n.startsWith(stem) && LANGUAGE_NAMES[n.slice(stem.length).toLowerCase()] !== undefined) ? language : undefined;
}

/**
 * Two values that are a word and its negation (`active` / `inactive`, `smoker` / `non-smoker`), or a phrase and its
 * denial sharing a word (`has results` / `no results available`, `with children` / `without children`): a yes/no.
 */
export function negationPair(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (/^[a-z][a-z -]*[a-z]$/.test(short) && short.length >= 3 && ['in', 'un', 'non', 'non-', 'non ', 'not ', 'not-', 'dis', 'im', 'ir', 'il'].some((prefix) => long === `${prefix}${short}`)) return true;
  const denial = /^(no|not|without|non)\s+(.+)$/;
  const [denied, affirmed] = denial.test(a) ? [a, b] : denial.test(b) ? [b, a] : [undefined, undefined];
  if (denied === undefined || affirmed === undefined || denial.test(affirmed)) return false;
  const words = (text: string) => text.split(/[^a-z]+/).filter((w) => w.length >= 4 && !/^(with|have|been|that|this|from|available)$/.test(w));
  const said = new Set(words(affirmed.replace(/^(has|have|had|with|is|are|was|any|some)\s+/, '')));
  return words(denied.replace(denial, '$2')).some((w) => said.has(w));
}

/** Ordinary words that begin or end with a statistic's letters. */
const ORDINARY_WORDS = new Set(['admin', 'vitamin', 'vitamins', 'minister', 'ministers', 'ministry', 'mineral', 'minerals', 'climax', 'comedian', 'comedians', 'meantime', 'meanwhile']);

/**
 * Words hidden inside one token (`maxtemp`, `tmean`, `vpdmax`): a statistic or a temperature written without a
 * separator. Only for tokens that are not words of their own (`minutes` is a duration, not a minimum).
 */
export function nonAdditiveMorpheme(tokens: readonly string[], known: ReadonlySet<string>): string | undefined {
  for (const t of tokens) {
    // One letter and a statistic (`dmin`, `tmax`): the distance to the nearest station, the day's highest temperature.
    if (t.length === 4 && /^[a-z](max|min|avg)$/.test(t)) return t.slice(1);
    if (known.has(t) || t.length < 5) continue;
    // A price index written into a series' name (`gnpdefl`, `gdpdeflator`).
    if (/(defl|deflator)$/.test(t)) return 'deflator';
    if (t.includes('temp')) return 'temp';
    if (t.includes('range')) return 'range';
    // A price run together with its currency or kind (`usdprice`, `unitprice`, `listprice`).
    if (t.length >= 7 && t.endsWith('price')) return 'price';
    if (t.length >= 7 && /(per|pct)$/.test(t)) return 'per';
    // A fraction or a percentage run into what it is of (`fracwild`, `pctwhite`).
    if (t.length >= 7 && /^(frac|pct)/.test(t)) return t.startsWith('frac') ? 'fraction' : 'pct';
    // A word that merely begins or ends with the letters (`mining`, `meaning`, `admin`, `vitamin`) is no statistic.
    if (ORDINARY_WORDS.has(t) || /ings?$/.test(t)) continue;
    for (const m of ['max', 'min', 'mean', 'avg', 'median']) if (t.startsWith(m) || t.endsWith(m)) return m;
  }
  return undefined;
}

/** Generic measure names whose meaning is the table's (`population.value`, `gdp.value`). */
export const GENERIC_MEASURE_NAMES = new Set(['value', 'values', 'val', 'measure', 'figure', 'data', 'reading', 'observation', 'obs']);

export function hasAny(tokens: readonly string[], words: ReadonlySet<string>): string | undefined {
  return tokens.find((t) => words.has(t));
}

/** Country names as files write them (English short names and common variants), for telling a country column by its values. */
export const COUNTRY_NAMES = new Set<string>(
  ["afghanistan", "albania", "algeria", "andorra", "angola", "antigua and barbuda", "argentina", "armenia", "australia", "austria", "azerbaijan", "bahamas", "bahrain", "bangladesh", "barbados", "belarus", "belgium", "belize", "benin", "bhutan", "bolivia", "bosnia and herzegovina", "botswana", "brazil", "brunei", "bulgaria", "burkina faso", "burundi", "cabo verde", "cape verde", "cambodia", "cameroon", "canada", "central african republic", "chad", "chile", "china", "colombia", "comoros", "congo", "democratic republic of the congo", "costa rica", "croatia", "cuba", "cyprus", "czechia", "czech republic", "denmark", "djibouti", "dominica", "dominican republic", "ecuador", "egypt", "el salvador", "equatorial guinea", "eritrea", "estonia", "eswatini", "swaziland", "ethiopia", "fiji", "finland", "france", "gabon", "gambia", "georgia", "germany", "ghana", "greece", "grenada", "guatemala", "guinea", "guinea-bissau", "guyana", "haiti", "honduras", "hong kong", "hungary", "iceland", "india", "indonesia", "iran", "iraq", "ireland", "israel", "italy", "ivory coast", "côte d'ivoire", "cote d'ivoire", "jamaica", "japan", "jordan", "kazakhstan", "kenya", "kiribati", "kosovo", "kuwait", "kyrgyzstan", "laos", "latvia", "lebanon", "lesotho", "liberia", "libya", "liechtenstein", "lithuania", "luxembourg", "macao", "macau", "madagascar", "malawi", "malaysia", "maldives", "mali", "malta", "marshall islands", "mauritania", "mauritius", "mexico", "micronesia", "moldova", "monaco", "mongolia", "montenegro", "morocco", "mozambique", "myanmar", "burma", "namibia", "nauru", "nepal", "netherlands", "new zealand", "nicaragua", "niger", "nigeria", "north korea", "north macedonia", "macedonia", "norway", "oman", "pakistan", "palau", "palestine", "panama", "papua new guinea", "paraguay", "peru", "philippines", "poland", "portugal", "puerto rico", "qatar", "romania", "russia", "russian federation", "rwanda", "saint lucia", "samoa", "san marino", "saudi arabia", "senegal", "serbia", "seychelles", "sierra leone", "singapore", "slovakia", "slovenia", "solomon islands", "somalia", "south africa", "south korea", "korea", "south sudan", "spain", "sri lanka", "sudan", "suriname", "sweden", "switzerland", "syria", "taiwan", "tajikistan", "tanzania", "thailand", "timor-leste", "east timor", "togo", "tonga", "trinidad and tobago", "tunisia", "turkey", "türkiye", "turkmenistan", "tuvalu", "uganda", "ukraine", "united arab emirates", "uae", "united kingdom", "uk", "britain", "great britain", "united states", "usa", "united states of america", "uruguay", "uzbekistan", "vanuatu", "venezuela", "vietnam", "viet nam", "yemen", "zambia", "zimbabwe", "euro area", "world", "greenland", "england", "scotland", "wales"],
);

/** US states', the District of Columbia's and the territories' postal codes. */
export const US_STATE_CODES: readonly string[] = 'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI AS MP'.split(' ');

/**
 * ISO 3166-1 country codes, alpha-2 and alpha-3 (with Kosovo's user-assigned XK / XKX), for telling a column of
 * country codes by its values.
 */
export const COUNTRY_CODES = new Set<string>([
  ...'ABW AD AE AF AFG AG AGO AI AIA AL ALA ALB AM AND AO AQ AR ARE ARG ARM AS ASM AT ATA ATF ATG AU AUS AUT AW AX AZ AZE BA BB BD BDI BE BEL BEN BES BF BFA BG BGD BGR BH BHR BHS BI BIH BJ BL BLM BLR BLZ BM BMU BN BO BOL BQ BR BRA BRB BRN BS BT BTN BV BVT BW BWA BY BZ CA CAF CAN CC CCK CD CF CG CH CHE CHL CHN CI CIV CK CL CM CMR CN CO COD COG COK COL COM CPV CR CRI CU CUB CUW CV CW CX CXR CY CYM CYP CZ CZE DE DEU DJ DJI DK DM DMA DNK DO DOM DZ DZA EC ECU EE EG EGY EH ER ERI ES ESH ESP EST ET ETH FI FIN FJ FJI FK FLK FM FO FR FRA FRO FSM GA GAB GB GBR GD GE GEO GF GG GGY GH GHA GI GIB GIN GL GLP GM GMB GN GNB GNQ GP GQ GR GRC GRD GRL GS GT GTM GU GUF GUM GUY GW GY HK HKG HM HMD HN HND HR HRV HT HTI HU HUN ID IDN IE IL IM IMN IN IND IO IOT IQ IR IRL IRN IRQ IS ISL ISR IT ITA JAM JE JEY JM JO JOR JP JPN KAZ KE KEN KG KGZ KH KHM KI KIR KM KN KNA KOR KP KR KW KWT KY KZ LA LAO LB LBN LBR LBY LC LCA LI LIE LK LKA LR LS LSO LT LTU LU LUX LV LVA LY MA MAC MAF MAR MC MCO MD MDA MDG MDV ME MEX MF MG MH MHL MK MKD ML MLI MLT MM MMR MN MNE MNG MNP MO MOZ MP MQ MR MRT MS MSR MT MTQ MU MUS MV MW MWI MX MY MYS MYT MZ NA NAM NC NCL NE NER NF NFK NG NGA NI NIC NIU NL NLD NO NOR NP NPL NR NRU NU NZ NZL OM OMN PA PAK PAN PCN PE PER PF PG PH PHL PK PL PLW PM PN PNG POL PR PRI PRK PRT PRY PS PSE PT PW PY PYF QA QAT RE REU RO ROU RS RU RUS RW RWA SA SAU SB SC SD SDN SE SEN SG SGP SGS SH SHN SI SJ SJM SK SL SLB SLE SLV SM SMR SN SO SOM SPM SR SRB SS SSD ST STP SUR SV SVK SVN SWE SWZ SX SXM SY SYC SYR SZ TC TCA TCD TD TF TG TGO TH THA TJ TJK TK TKL TKM TL TLS TM TN TO TON TR TT TTO TUN TUR TUV TV TW TWN TZ TZA UA UG UGA UKR UM UMI URY US USA UY UZ UZB VA VAT VC VCT VE VEN VG VGB VI VIR VN VNM VU VUT WF WLF WS WSM XK XKX YE YEM YT ZA ZAF ZM ZMB ZW ZWE'.split(' '),
  // Countries that were (ISO 3166-3 and statistics offices' own): East and West Germany, the USSR, Yugoslavia,
  // Czechoslovakia, Serbia and Montenegro, the Netherlands Antilles.
  ...'DDR DEW SUN YUG CSK SCG ANT'.split(' '),
]);

/** Units that measure an amount (mass, chemical amount, length, conductance, energy, volume). */
export const AMOUNT_UNITS = /^(g|mg|ug|µg|ng|kg|lb|lbs|oz|meq|mmol|umol|mol|mmhos|umhos|ms|us|ds|mm|cm|km|in|ft|cal|kcal|kj|kwh|mwh|ml)$/;
/** Units of what the amount is per: a volume, a mass, a length, an area (not a time: a flow per day adds up). */
export const PER_UNITS = /^(cm3|m3|cc|l|ml|dl|kg|g|100g|100ml|ft|m|cm|km|ha|ac|acre|m2|km2|ft2)$/;

/** Two words of a name that are one unit over another (`mg` `kg`, `g` `cm3`, `meq` `100g`), written as a reader would: "mg/kg", "g/cm³". */
export function unitPair(amount: string, per: string): string | undefined {
  const [a, b] = [amount.toLowerCase(), per.toLowerCase()];
  if (!AMOUNT_UNITS.test(a) || !PER_UNITS.test(b) || a === b) return undefined;
  const shown = (u: string) => u.replace(/^(\w+?)([23])$/, (_, base: string, p: string) => `${base}${p === '2' ? '²' : '³'}`).replace(/^100(g|ml)$/, '100 $1').replace(/^ug$/, 'µg');
  return `${shown(a)}/${shown(b)}`;
}

/** A label that reads as a total: the word alone, 'Total X' / 'X total', 'all_x' / 'All X', 'World', other languages. */
export const TOTAL_LABEL = /^(?:(?:grand|sub)[\s_-]*total|totals?|all|overall|sum|world|gesamt|insgesamt|summe|totale|tous|todos|todas|alle)$|^(?:grand[\s_-]*)?total\b|\btotal$|^all[\s_-]+\S+(?:\s+\S+){0,2}$|^(?:gesamt|insgesamt)\b/i;

/** A questionnaire's item code before the item's words (`b5_okr_familiarity`, `c5_team_alignment`, `q12a_trust`). */
export const ITEM_CODE = /^([a-z]\d{1,2}[a-z]?)_([a-z][a-z0-9_]*)$/i;

/**
 * A table's caption that says its figures are amounts per period ("All values in billion tonnes of carbon per year
 * (GtC/yr)", "Figures are in £m per annum"): the line, or none. Its columns are flows of each period.
 */
export function flowCaption(preamble: readonly string[] | undefined): string | undefined {
  return (preamble ?? []).slice(0, 24).find((line) => /\b(values|figures|data|numbers|amounts|estimates)\b[^.]{0,40}\b(in|are)\b[^.]{0,80}(\bper (year|annum|month|quarter)\b|\/\s?(yr|year|month|quarter)\b)/i.test(line));
}
