// Bids and counts in words, as every part of the page writes them.

export const bidText = (bid) => (bid === "nil" ? "Nil" : bid === "blind_nil" ? "Blind Nil" : String(bid));
export const isNil = (bid) => bid === "nil" || bid === "blind_nil";
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
// "a normal bot", "an expert bot": the article a word takes as it is said.
export const withArticle = (word) => `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;
