/**
 * Launch plans, credit packages and categories (docs/decisions/004-launch-plans-and-prices.md).
 * Amounts are in minor units (cents). -1 means unlimited.
 */
export const PLANS = [
  { planType: "free", name: "Free", scanQuota: 3, linkQuota: 3, annotationQuota: 5, embedQuota: 1, watermarkRemoval: false, priceAmount: 0, sortOrder: 0 },
  { planType: "starter", name: "Starter", scanQuota: 10, linkQuota: 25, annotationQuota: 20, embedQuota: 10, watermarkRemoval: false, priceAmount: 900, sortOrder: 1 },
  { planType: "growth", name: "Growth", scanQuota: 40, linkQuota: 100, annotationQuota: 50, embedQuota: 50, watermarkRemoval: true, priceAmount: 2900, sortOrder: 2 },
  { planType: "pro", name: "Pro", scanQuota: -1, linkQuota: 500, annotationQuota: 200, embedQuota: 500, watermarkRemoval: true, priceAmount: 7900, sortOrder: 3 },
] as const;

export const CREDIT_PACKAGES = [
  { name: "5 scans", credits: 5, creditType: "scan", priceAmount: 1500, sortOrder: 0 },
  { name: "20 scans", credits: 20, creditType: "scan", priceAmount: 4900, sortOrder: 1 },
  { name: "10 links", credits: 10, creditType: "link", priceAmount: 500, sortOrder: 0 },
  { name: "50 links", credits: 50, creditType: "link", priceAmount: 1900, sortOrder: 1 },
] as const;

export const CATEGORIES = [
  { slug: "products", name: "Products" },
  { slug: "art-sculpture", name: "Art & sculpture" },
  { slug: "architecture", name: "Architecture" },
  { slug: "places-scenes", name: "Places & scenes" },
  { slug: "people", name: "People" },
  { slug: "nature", name: "Nature" },
  { slug: "vehicles", name: "Vehicles" },
  { slug: "food", name: "Food" },
  { slug: "other", name: "Other" },
] as const;
