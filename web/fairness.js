// The fairness check of a finished hand (docs/interfaces.md, 'Provably fair deals'; layers/tourney/domain/fairness.py):
// leaf_i = sha256("i:card_i:salt_i") for the cards revealed, the leaves given for the rest, and
// commitment = sha256(leaf_0 + ... + leaf_51), all hex.

export async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Check a reveal `{commitment, cards: [{i, card, salt}], leaves: [{i, leaf}]}`: a list of problems (empty: it holds). */
export async function verifyReveal(reveal) {
  const problems = [];
  const leaves = new Array(52).fill(null);
  for (const { i, card, salt } of reveal.cards || []) {
    if (!/^[0-9a-f]{32}$/.test(salt)) problems.push(`position ${i}: the salt is not 32 hex characters`);
    leaves[i] = await sha256Hex(`${i}:${card}:${salt}`);
  }
  for (const { i, leaf } of reveal.leaves || []) {
    if (leaves[i] !== null) problems.push(`position ${i} is revealed twice`);
    leaves[i] = leaf;
  }
  const missing = leaves.flatMap((leaf, i) => (leaf === null ? [i] : []));
  if (missing.length) problems.push(`positions ${missing.join(", ")} are missing`);
  else if ((await sha256Hex(leaves.join(""))) !== reveal.commitment) {
    problems.push("the 52 leaves do not hash to the commitment published at the deal");
  }
  return problems;
}
