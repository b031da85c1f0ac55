// Generates src/demo/data/customers.json deterministically (seeded PRNG): run it once and
// commit the output. `--check` regenerates in memory and fails if the committed file differs.
//   node --import tsx scripts/gen-demo-data.ts [--check]
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Customer } from "../src/demo/customers.js";

export const SEED = 3279;
export const DATASET_VERSION = "v18";
const TOTAL = 640;
/** Region counts: "NA" is the ~300-record query used by benchmarks. */
const REGION_COUNTS: Record<string, number> = { NA: 300, EMEA: 170, APAC: 110, LATAM: 60 };
const COUNTRIES: Record<string, string[]> = {
  NA: ["US", "CA", "MX"],
  EMEA: ["DE", "FR", "GB", "NL", "SE", "ZA", "AE"],
  APAC: ["JP", "AU", "SG", "IN", "KR"],
  LATAM: ["BR", "AR", "CL", "CO"],
};
const PLANS = ["free", "starter", "business", "enterprise"];
const OWNERS = [
  "Ada Park",
  "Bruno Silva",
  "Chen Wei",
  "Dana Levi",
  "Emeka Obi",
  "Freya Lund",
  "Gita Rao",
  "Hugo Brandt",
];
// No word may start like a region, plan or "globex" (search matches name-word prefixes).
const PREFIXES = [
  "Acme",
  "Initech",
  "Umbrella",
  "Stark",
  "Wayne",
  "Hooli",
  "Vandelay",
  "Soylent",
  "Wonka",
  "Cyberdyne",
  "Tyrell",
  "Massive",
  "Aperture",
  "Oscorp",
  "Dunder",
  "Pied",
  "Bluth",
  "Prestige",
  "Sterling",
  "Gringotts",
  "Monarch",
  "Kruger",
  "Duff",
  "Virtucon",
  "Zorg",
  "Octan",
  "Rekall",
  "Ollivander",
  "Krusty",
  "Lunar",
];
const SUFFIXES = [
  "Retail",
  "Energy",
  "Labs",
  "Logistics",
  "Health",
  "Foods",
  "Media",
  "Capital",
  "Robotics",
  "Analytics",
  "Mining",
  "Textiles",
  "Aerospace",
  "Pharma",
  "Security",
  "Software",
  "Telecom",
  "Travel",
  "Insurance",
  "Marine",
  "Motors",
  "Studios",
  "Farms",
  "Bank",
  "Consulting",
  "Chemicals",
  "Airlines",
  "Hotels",
  "Games",
  "Semiconductors",
  "Water",
  "Solar",
  "Biotech",
  "Cloud",
  "Construction",
  "Education",
  "Fitness",
  "Publishing",
  "Outdoors",
  "Furniture",
];
const GLOBEX_COUNT = 37;

export type { Customer };

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generate(seed = SEED): { datasetVersion: string; seed: number; customers: Customer[] } {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const iso = (ms: number) => new Date(Math.floor(ms / 60000) * 60000).toISOString().replace(".000Z", "Z");
  const FROM = Date.parse("2025-09-01T00:00:00Z");
  const BEFORE_TOP3 = Date.parse("2026-08-15T23:00:00Z");

  const usedIds = new Set(["cust_1042", "cust_2088", "cust_3175"]);
  const newId = () => {
    for (;;) {
      const id = `cust_${int(1000, 9999)}`;
      if (!usedIds.has(id)) return (usedIds.add(id), id);
    }
  };
  // Regions in a seeded shuffle with exact counts.
  const regions = Object.entries(REGION_COUNTS).flatMap(([r, n]) => Array<string>(n).fill(r));
  for (let i = regions.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [regions[i], regions[j]] = [regions[j], regions[i]];
  }
  const names: string[] = SUFFIXES.slice(0, GLOBEX_COUNT).map((s) => `Globex ${s}`);
  const taken = new Set(names);
  while (names.length < TOTAL) {
    const n = `${pick(PREFIXES)} ${pick(SUFFIXES)}`;
    if (!taken.has(n)) taken.add(n), names.push(n);
  }
  const top3: Record<string, { id: string; region: Customer["region"]; at: string }> = {
    "Globex Retail": { id: "cust_1042", region: "NA", at: "2026-08-17T21:10:00Z" },
    "Globex Energy": { id: "cust_2088", region: "EMEA", at: "2026-08-17T09:32:00Z" },
    "Globex Labs": { id: "cust_3175", region: "APAC", at: "2026-08-16T18:05:00Z" },
  };
  // Give the fixed top-3 regions from the shuffled pool so the region counts stay exact.
  for (const t of Object.values(top3)) regions.splice(regions.indexOf(t.region), 1);

  const customers: Customer[] = names.map((displayName) => {
    const fixed = top3[displayName];
    const region = (fixed?.region ?? regions.pop()!) as Customer["region"];
    const created = int(FROM - 400 * 86400000, FROM);
    const plan = pick(PLANS);
    const seats =
      plan === "free"
        ? int(1, 5)
        : plan === "starter"
          ? int(3, 25)
          : plan === "business"
            ? int(20, 250)
            : int(200, 5000);
    const perSeat: Record<string, number> = { free: 0, starter: 8, business: 15, enterprise: 22 };
    return {
      customerId: fixed?.id ?? newId(),
      displayName,
      region,
      country: pick(COUNTRIES[region]),
      plan,
      seats,
      mrrUsd: seats * perSeat[plan],
      accountOwner: pick(OWNERS),
      createdAt: iso(created),
      lastActivity: fixed?.at ?? iso(int(FROM, BEFORE_TOP3)),
    };
  });
  customers.sort((a, b) => a.customerId.localeCompare(b.customerId));
  return { datasetVersion: DATASET_VERSION, seed, customers };
}

export function serialize(data: ReturnType<typeof generate>): string {
  // One customer per line: readable diffs, small file.
  const lines = data.customers.map((c) => `    ${JSON.stringify(c)}`);
  return `{\n  "datasetVersion": ${JSON.stringify(data.datasetVersion)},\n  "seed": ${data.seed},\n  "customers": [\n${lines.join(",\n")}\n  ]\n}\n`;
}

const OUT = fileURLToPath(new URL("../src/demo/data/customers.json", import.meta.url));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = serialize(generate());
  if (process.argv.includes("--check")) {
    const same = readFileSync(OUT, "utf8") === text;
    process.stdout.write(
      same ? "customers.json is up to date\n" : "customers.json differs from the generator output\n",
    );
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(OUT, text);
    process.stdout.write(`wrote ${OUT}\n`);
  }
}
