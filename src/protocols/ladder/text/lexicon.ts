/**
 * Hand-checked rewrites for the words and phrases grade-school problems use most, where WordNet's
 * first sense would mislead (a "cost" that is a verb, a "has to" that is "must"). Each entry is a
 * case-insensitive pattern with word boundaries and a replacement; the replacement keeps the
 * original's capitalisation of the first letter. Used by Semantic Variation before WordNet.
 */

export interface Rewrite {
  /** Regex source, matched case-insensitively at word boundaries. */
  pattern: string;
  replacement: string;
  /** Phrase rewrites change several words (L2 and up); word swaps are L1 material. */
  phrase: boolean;
}

const word = (pattern: string, replacement: string): Rewrite => ({ pattern, replacement, phrase: false });
const phrase = (pattern: string, replacement: string): Rewrite => ({ pattern, replacement, phrase: true });

export const LEXICON: readonly Rewrite[] = [
  // Reviewed entry by entry as a copy editor would (docs/ladder-families.md#sv-lexicon): a rewrite
  // stays only where it reads as plain English and means the same in every context its pattern
  // allows; the lookarounds are those contexts. Dropped: stilted register ("consumes", "individuals",
  // "pupils", "vehicle", "journey", "additionally", "resides", "jointly", "what number of", "count
  // of", "an overall total of"), meaning shifts ("small" -> "little", "smallest" -> "lowest",
  // "empty" -> "unoccupied", "stopped" -> "quit", "money" -> "cash", "gives away" -> "donates",
  // "already" -> "previously", "only" -> "just", "wanted to" -> "hoped to"), British spellings in
  // American text, and forms that break grammar in some context ("put" past -> "place", "a whole" ->
  // "a entire", "they can" -> "they is able to").
  word('bought', 'purchased'),
  word('buys', 'purchases'),
  word('(?<=\\b(?:to|can|could|will|would|must|should|and) )buy', 'purchase'),
  word('various', 'different'),
  word('types(?= of\\b)', 'kinds'),
  word('kinds(?= of\\b)', 'types'),
  // The noun only: "store the apples" is no shop.
  word(
    '(?<=\\b(?:the|a|this|that|his|her|their|its|local|grocery|corner|toy|pet|book|candy|clothing) )store',
    'shop',
  ),
  word('children', 'kids'),
  word('kids', 'children'),
  // Of size only: "a large number" is not "a big number".
  word('large(?! (?:number|amount|part|share|group|sum|margin)\\b)', 'big'),
  word('mini(?!-)', 'small'),
  word('usually', 'normally'),
  word('normally', 'usually'),
  // Not before a number: "every 3 months" is never "each 3 months".
  word('every(?! (?:\\d|(?:two|three|four|five|six|other)\\b))', 'each'),
  // Of things found, not of a judgement: "found the test hard" stays.
  word('finds(?= (?:\\$?\\d|a |an |some ))', 'discovers'),
  word('found(?= (?:\\$?\\d|a |an |some ))', 'discovered'),
  // Of money only: "earns 5 points" is not "makes 5 points".
  word('earns(?= \\$)', 'makes'),
  word('earned(?= \\$)', 'made'),
  word('earn(?= \\$)', 'make'),
  word('receives', 'gets'),
  // Not as a participle: "were received by" is never "were got by", "has received" not "has got".
  word('(?<!\\b(?:was|were|is|are|be|been|being|has|have|had) )received', 'got'),
  // After a determiner only: "the stock price" is not "the stock cost", nor "selling price" "selling cost".
  word('(?<=\\b(?:the|a|its|his|her|their|same|total) )price', 'cost'),
  word('total(?= (?:cost|price|amount|weight|distance)\\b)', 'overall'),
  word('(?<=\\b(?:the|total|overall|a) )cost(?=[ ?.,])', 'price'),
  // Of an amount received: "gets the bus" is not "receives the bus".
  word('gets(?= \\$?\\d)', 'receives'),
  word('got(?= \\$?\\d)', 'received'),
  word('needs(?= (?:\\$?\\d|a |an |the ))', 'requires'),
  word('calculate', 'work out'),
  // The instruction only: "to find the book" is no "determine the book".
  word('(?<![A-Za-z] )find(?= the )', 'determine'),
  word('(?<=the )rest', 'remainder'),
  // After "the" or a possessive: "a whole pizza" would be "a entire pizza"; "whole numbers" stay.
  word('(?<=\\b(?:the|his|her|their|its|this|that) )entire', 'whole'),
  word('(?<=\\b(?:the|his|her|their|its|this|that) )whole(?! numbers?\\b)', 'entire'),
  word('begins', 'starts'),
  word('began', 'started'),
  word('starts', 'begins'),
  // After has/have/had the participle: never "has began", "has chose".
  word('(?<!\\b(?:has|have|had) )started', 'began'),
  word('(?<=\\b(?:has|have|had) )started', 'begun'),
  // Before "to" only: "wants a bike" is never "wishes a bike".
  word('wants(?= to\\b)', 'wishes'),
  // Before "to" only: "decided that she'll give" is never "chosen that".
  word('decides(?= to\\b)', 'chooses'),
  word('(?<!\\b(?:has|have|had) )decided(?= to\\b)', 'chose'),
  word('(?<=\\b(?:has|have|had) )decided(?= to\\b)', 'chosen'),
  // An abbreviation reads only after a number or "per": never "within an hr".
  word('(?<=(?:\\d|\\bper) )hour', 'hr'),
  // The home one lives in, not a "house party" or a "dog house".
  word(
    '(?<=\\b(?:the|a|his|her|their|my|our|your|new|old|own) )house(?! (?:party|plants?|keys?|rules?|work|guests?)\\b)',
    'home',
  ),
  word('biggest', 'largest'),
  // Of a task: "the finish line" is no "complete line".
  word('finished(?= (?:the|a|an|his|her|their|its|all|\\d))', 'completed'),
  word('finish(?= (?:the|a|an|his|her|their|its|all|\\d))', 'complete'),
  word('finishes(?= (?:the|a|an|his|her|their|its|all|\\d))', 'completes'),
  // Of things counted: "saw a movie" is not "spotted a movie".
  word('saw(?= \\d)', 'spotted'),
  word('sees(?= \\d)', 'spots'),
  // The verb after its subject: "50 likes" on a post are never "50 enjoys".
  word('(?<=\\b(?:he|she|who|everyone|everybody) )likes(?! to)', 'enjoys'),
  // Of things gathered: "picks a card" chooses it.
  word('picks(?= \\d)', 'gathers'),
  word('picked(?= \\d)', 'gathered'),
  word('collects(?= \\d)', 'gathers'),
  word('want(?= to\\b)', 'wish'),
  // What is left at the end: "she has left the house" departs.
  word('(?<=(?:have|has|had) )left(?=[?.,]| (?:after|at|in|for|to spend)\\b)', 'remaining'),
  // Next to a number: the words around quantities anchor most of the similarity, so these matter.
  // Closing the phrase only: "$15 each week" is never "$15 apiece week".
  word('(?<=\\d )each(?=[.,;?!]|$| (?:and|or|but|for|if|so|to|in|on|at|with|from|than)\\b)', 'apiece'),
  word('(?<=\\d )minutes', 'mins'),
  word('(?<=\\d )hours', 'hrs'),
  word('(?<=\\d )pounds', 'lbs'),
  word('(?<=\\d )ounces', 'oz'),
  word('(?<=\\d )feet', 'ft'),
  word('(?<=\\d )percent', '%'),
  phrase('which costs?(?= \\$\\d)', 'priced at'),
  phrase('that costs?(?= \\$\\d)', 'priced at'),
  // A price, not a discount: "a coupon for $2 off" keeps "for".
  phrase('(?<!\\bcoupon )for (?=\\$\\d(?![\\d.,]* off\\b))', 'at '),
  phrase('costs (?=\\$\\d)', 'is priced at '),
  phrase('years old', 'years of age'),
  word('twice', 'two times'),
  word('(?<!\\b(?:was|were|is|are|be|been|being|has|have|had) )scored', 'got'),
  word('dad', 'father'),
  word('mom', 'mother'),
  word('kilograms', 'kilos'),
  word('movie(?! theaters?\\b)', 'film'),
  phrase('plans to', 'intends to'),
  phrase('tries to', 'attempts to'),
  phrase('trying to', 'attempting to'),
  word('puts', 'places'),
  word('exactly', 'precisely'),
  word('arrive', 'show up'),
  word('saved(?= \\$)', 'set aside'),
  // Closing a question only: "Together, how many ..." or "Together they give" stays.
  word('together(?=[?.])', 'in all'),
  word('altogether', 'in total'),
  word('holds(?= \\$?\\d)', 'contains'),
  word('hold(?= \\$?\\d)', 'contain'),
  // How something is divided: "equally good" stays.
  word('equally(?=[.,?]|$| (?:among|between|into)\\b)', 'evenly'),
  word('(?<=(?:is|are) )cut(?= (?:into|in half)\\b)', 'sliced'),
  phrase('how many dollars(?= (?:does|do|did|will|would|should|can|could)\\b)', 'how much money'),
  // "how much is left over" keeps its "left"; "he is left with 5" does not remain with them.
  phrase('is left(?! (?:over|with|behind|alone|out)\\b)', 'remains'),
  phrase('are left(?! (?:over|with|behind|alone|out)\\b)', 'remain'),
  phrase('in each', 'in every'),
  phrase('the next day', 'the following day'),
  phrase('at dinner', 'during dinner'),
  phrase('the two of them', 'both of them'),
  phrase('sit down', 'take a seat'),
  // Only before the amount: "It takes 10 minutes" -> "It requires 10 minutes", never "It requires them".
  word('(?<=\\bit )takes(?= (?:\\$?\\d|a |an |one |two |three |half ))', 'requires'),
  // Before a singular noun, at a sentence's start or after a preposition: "200 apartments each and"
  // and "each other" stay.
  word(
    '(?:(?<=\\b(?:in|on|for|at|with|from|by|to) )|(?<![\\w,$] ))each(?= (?!(?:of|other|one|and|or|but|than|to|in|on|at|with|from|for)\\b)[a-z]+[^s\\W]\\b)',
    'every',
  ),
  word('daily(?=[.,?])', 'every day'),
  // A change in value: "increases the price" stays.
  word('increases(?= (?:by )?\\$?\\d)', 'rises'),
  word('decreases(?= (?:by )?\\$?\\d)', 'falls'),
  word('combined(?=[?.])', 'together'),
  // Of an amount handed over: "gives a speech" and "gives up" stay.
  word('gives(?= (?:(?:him|her|them|each|every) )?\\$?\\d)', 'hands'),
  word('gave(?= (?:(?:him|her|them|each|every) )?\\$?\\d)', 'handed'),
  word('remaining(?=[?.])', 'left'),
  word('(?<![A-Za-z] )later(?=,)', 'afterwards'),
  word('bakes(?= \\d)', 'makes'),
  word('purchased', 'bought'),
  word('(?<=\\b(?:the|a|this|that|his|her|their|its|local|corner) )shop(?!s)', 'store'),
  // A fall in value: "drops 5 apples" is no "falls 5 apples".
  word('drops(?= (?:by|to)\\b)', 'falls'),
  word('except', 'apart from'),
  word('responds', 'replies'),
  word('respond', 'reply'),
  word('response', 'reply'),
  word('(?<=\\b(?:you|I|we|they) )must', 'have to'),
  word('(?<=\\b(?:he|she|it) )must', 'has to'),
  phrase('what percentage', 'what percent'),
  phrase('right now', 'at present'),
  phrase('so far', 'up to now'),
  phrase('make a call', 'place a call'),
  phrase('all the other', 'all of the other'),
  phrase('wish to', 'want to'),
  phrase('wishes to', 'wants to'),
  phrase('(?<=[a-z]s )a day', 'per day'),
  phrase('(?<=[a-z]s )a week', 'per week'),
  phrase('(?<=[a-z]s )a month', 'per month'),
  phrase('(?<=[a-z]s )an hour', 'per hour'),
  phrase('(?<=[a-z]s )a minute', 'per minute'),
  // Not before a comparison: "15 red cards, and 60% more green cards" is no sum.
  // And between two counts of things only: "boys and 50% of which are girls" joins two clauses.
  phrase('(?<=[a-z]s,? )and (?=\\$?\\d[\\d.,]* (?!(?:more|fewer|less|times)\\b)[a-z]+s\\b)', 'plus '),
  // Of stuff one measures only: "the loan amount" or "an amount of money" is no quantity.
  phrase(
    'amount of(?= (?:water|flour|sugar|milk|juice|paint|food|sand|rice|oil|gas|fuel|soil|seed|feed|hay)\\b)',
    'quantity of',
  ),
  phrase('each of', 'every one of'),
  phrase('amount of money', 'sum of money'),
  phrase('needs to', 'has to'),
  // Not before "have" ("need to have to produce" is no "have to have to"), nor in a question whose
  // object is what is needed ("how much force does he need to push" is no "have to push").
  phrase('(?<!\\b(?:does|do|did|will|would|can) \\w+ )need to(?! have\\b)', 'have to'),
  // Of going somewhere: "went to sleep" stays.
  phrase('went to(?= the\\b)', 'headed to'),
  phrase('goes to(?= the\\b)', 'heads to'),
  phrase('wants to', 'would like to'),
  phrase('has to', 'must'),
  // Not "have to" -> "need to" beside "need to" -> "have to": "need to have to" would swap both.
  phrase('is going to', 'will'),
  phrase('are going to', 'will'),
  // Of time only: "how long is the rope" asks a length.
  phrase('how long(?= (?:does|did|do|will|would|should|can|could)\\b)', 'how much time'),
  phrase('(?<!\\b(?:find|out|determine) )how much(?= (?:is|was|are|were|will) )', 'what'),
  // Closing the sentence: "in all the boxes" is no "altogether the boxes".
  phrase('in total(?=[?.,])', 'altogether'),
  phrase('in all(?=[?.,])', 'altogether'),
  phrase('per day', 'a day'),
  phrase('per week', 'a week'),
  phrase('per hour', 'an hour'),
  phrase('per month', 'a month'),
  phrase('per (?=dozen|pound|pot|box|bag|kilogram|ounce|minute|person|item|page|cup)', 'for each '),
  phrase('each day', 'every day'),
  phrase('each week', 'every week'),
  phrase('each month', 'every month'),
  phrase('a lot of', 'lots of'),
  // Before an amount only, and not after one: "11 more than half as many", "60 feet more than
  // Sam" are comparisons, never "11 over half".
  phrase('(?<!\\d\\S* (?:\\S+ )?)more than(?= \\$?\\d)', 'over'),
  phrase('because', 'since'),
  phrase('in order to', 'to'),
  phrase('is able to', 'can'),
  // After a singular subject: "the twins can eat 5" is never "the twins is able to".
  phrase('(?<=\\b(?:he|she|it) )can (?=\\w+ \\$?\\d)', 'is able to '),
];

/** A lexicon pattern as a regex source bounded like a word: `\b` before, and after it either `\b` or a space it ended on. */
export function bounded(pattern: string): string {
  return `\\b(?:${pattern})(?:\\b|(?<= ))`;
}

/** Contractions and their long forms; only unambiguous pairs ("he's" could be "he has"). */
export const CONTRACTIONS: readonly [long: string, short: string][] = [
  ['did not', "didn't"],
  ['does not', "doesn't"],
  ['do not', "don't"],
  ['is not', "isn't"],
  ['are not', "aren't"],
  ['was not', "wasn't"],
  ['were not', "weren't"],
  ['cannot', "can't"],
  ['can not', "can't"],
  ['will not', "won't"],
  ['would not', "wouldn't"],
  ['has not', "hasn't"],
  ['have not', "haven't"],
  ['it is', "it's"],
  ['there is', "there's"],
  ['that is', "that's"],
  ['what is', "what's"],
  ['they are', "they're"],
  ['we are', "we're"],
  ['you are', "you're"],
  ['I am', "I'm"],
  ['she will', "she'll"],
  ['he will', "he'll"],
  ['they will', "they'll"],
  ['let us', "let's"],
];
