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
  word('bought', 'purchased'),
  word('buys', 'purchases'),
  word('buy', 'purchase'),
  word('various', 'assorted'),
  word('types', 'kinds'),
  word('kinds', 'types'),
  word('store', 'shop'),
  word('children', 'kids'),
  word('kids', 'children'),
  word('large', 'big'),
  word('big', 'large'),
  word('small', 'little'),
  word('mini(?!-)', 'small'),
  word('also', 'additionally'),
  // Only in a perfect tense: "has already eaten" -> "has previously eaten", never "she previously has 2 plants".
  word('(?<=\\b(?:have|has|had) )already', 'previously'),
  word('usually', 'normally'),
  word('normally', 'usually'),
  // Inside a clause only: "Only full cartons are sold" is never "Just full cartons".
  word('(?<=[a-z,] )(?<!the )only', 'just'),
  // Not before a number: "every 3 months" is never "each 3 months".
  word('every(?! (?:\\d|(?:two|three|four|five|six|other)\\b))', 'each'),
  word('finds', 'discovers'),
  word('found', 'discovered'),
  word('earns', 'makes'),
  word('earned', 'made'),
  word('receives', 'gets'),
  // Not as a participle: "were received by" is never "were got by", "has received" not "has got".
  word('(?<!\\b(?:was|were|is|are|be|been|being|has|have|had) )received', 'got'),
  // After a determiner only: "the stock price" is not "the stock cost", nor "selling price" "selling cost".
  word('(?<=\\b(?:the|a|its|his|her|their|same|total) )price', 'cost'),
  word('total(?= (?:cost|price|number|amount|weight|distance|time))', 'overall'),
  word('(?<=\\b(?:the|total|overall|a) )cost(?=[ ?.,])', 'price'),
  word('gets(?= (?:\\$?\\d|a |an |the |some ))', 'receives'),
  word('got(?= (?:\\$?\\d|a |an |the |some ))', 'received'),
  word('needs(?= (?:\\$?\\d|a |an |the ))', 'requires'),
  word('calculate', 'work out'),
  word('find(?= the )', 'determine'),
  word('(?<=the )rest', 'remainder'),
  // Not "remaining" -> "leftover": "the leftover class".
  word('entire', 'whole'),
  word('whole', 'entire'),
  word('quickly', 'fast'),
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
  word('spends', 'uses up'),
  // An abbreviation reads only after a number or "per": never "within an hr".
  word('(?<=(?:\\d|\\bper) )hour', 'hr'),
  word('money', 'cash'),
  word('house', 'home'),
  word('students', 'pupils'),
  word('people', 'individuals'),
  word('favorite', 'preferred'),
  word('biggest', 'largest'),
  word('finished', 'completed'),
  word('finish', 'complete'),
  word('finishes', 'completes'),
  word('saw', 'spotted'),
  word('sees', 'spots'),
  word('eats', 'consumes'),
  word('ate', 'consumed'),
  word('eat', 'consume'),
  word('likes(?! to)', 'enjoys'),
  word('picks(?! up)', 'gathers'),
  word('picked(?! up)', 'gathered'),
  word('collects', 'gathers'),
  // A "field trip" or "school trip" is no journey.
  word('(?<!\\b(?:field|school|class|road|camping|fishing|shopping|day) )trip', 'journey'),
  // Not "bag" -> "sack": "a 300g sack".
  word('car(?! wash)', 'vehicle'),
  word('earn', 'make'),
  word('want(?= to\\b)', 'wish'),
  word('(?<=(?:have|has|had) )left', 'remaining'),
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
  // "he gets paid $50" is earning, not spending.
  word('pays(?= \\$)', 'spends'),
  word('(?<!\\b(?:get|gets|got|getting|is|are|was|were|be|been|being) )paid(?= \\$)', 'spent'),
  // Only of something shown: "Sophie watches her nephew" minds him, and does not view him.
  word(
    'watches(?= (?:a |an |the |\\d+ )?(?:[a-z]+ )?(?:movies?|films?|shows?|episodes?|videos?|cartoons?)\\b)',
    'views',
  ),
  word(
    'watched(?= (?:a |an |the |\\d+ )?(?:[a-z]+ )?(?:movies?|films?|shows?|episodes?|videos?|cartoons?)\\b)',
    'viewed',
  ),
  // The verbs only: "sandwiches and drinks" are never "consumes".
  word('drinks(?= (?:\\$?\\d|a |an |the |some |his |her |their |two |three |four |five ))', 'consumes'),
  word('drank(?= (?:\\$?\\d|a |an |the |some |his |her |their |two |three |four |five ))', 'consumed'),
  word('stopped', 'quit'),
  word('helps', 'assists'),
  word('lives(?= in\\b)', 'resides'),
  word('noticed', 'observed'),
  word('need(?= (?:\\$?\\d|a |an |the ))', 'require'),
  word('makes(?= \\$)', 'earns'),
  word('made(?= \\$)', 'earned'),
  word('charges(?= \\$)', 'asks for'),
  word('(?<!\\b(?:was|were|is|are|be|been|being|has|have|had) )scored', 'got'),
  word('dad', 'father'),
  word('mom', 'mother'),
  word('kilograms', 'kilos'),
  word('movie', 'film'),
  word('neighbor', 'neighbour'),
  word('color', 'colour'),
  word('colors', 'colours'),
  word('meters', 'metres'),
  word('liters', 'litres'),
  word('gray', 'grey'),
  phrase('plans to', 'intends to'),
  phrase('tries to', 'attempts to'),
  phrase('trying to', 'attempting to'),
  word('uses(?= \\$?\\d)', 'needs'),
  word('puts', 'places'),
  word('put', 'place'),
  word('carry', 'transport'),
  word('carries', 'transports'),
  word('exactly', 'precisely'),
  word('smallest', 'lowest'),
  word('empty', 'unoccupied'),
  word('arrive', 'show up'),
  word('adds(?= \\$?\\d)', 'puts in'),
  word('saved(?= \\$)', 'set aside'),
  // Closing a sentence only: "Together, how many ..." or "Together they give" is never "Jointly".
  word('together(?=[?.])', 'jointly'),
  word('altogether', 'in total'),
  word('holds(?= \\$?\\d)', 'contains'),
  word('hold(?= \\$?\\d)', 'contain'),
  word('shares(?= (?:all|the|his|her|their)\\b)', 'splits'),
  word('equally', 'evenly'),
  word('(?<=(?:is|are) )cut', 'sliced'),
  phrase('how many dollars(?= (?:does|do|did|will|would|should|can|could)\\b)', 'how much money'),
  // "how much is left over" keeps its "left" (no "what remain over").
  phrase('is left(?! over)', 'remains'),
  phrase('are left(?! over)', 'remain'),
  phrase('in each', 'in every'),
  phrase('the next day', 'the following day'),
  phrase('at dinner', 'during dinner'),
  phrase('in the morning', 'during the morning'),
  phrase('in the afternoon', 'during the afternoon'),
  phrase('in the evening', 'during the evening'),
  phrase('the two of them', 'both of them'),
  phrase('sit down', 'take a seat'),
  phrase('gives away', 'donates'),
  phrase('pays with', 'pays using'),
  // Only before the amount: "It takes 10 minutes" -> "It requires 10 minutes", never "It requires them".
  word('(?<=\\bit )takes(?= (?:\\$?\\d|a |an |one |two |three |half ))', 'requires'),
  word('spent(?= \\$)', 'paid out'),
  word('(?<=\\b(?:in|on|for|at|with|from|by|to) )each(?= (?!of\\b)[a-z]+[^s\\W]\\b)', 'every'),
  word('drops', 'falls'),
  word('hid', 'concealed'),
  word('except', 'apart from'),
  word('responds', 'replies'),
  word('respond', 'reply'),
  word('response', 'reply'),
  word('(?<=\\b(?:you|I|we|they) )must', 'have to'),
  word('(?<=\\b(?:he|she|it) )must', 'has to'),
  phrase('what percentage', 'what percent'),
  phrase('how old is', 'what is the age of'),
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
  phrase('(?<=[a-z]s,? )and (?=\\$?\\d(?!\\S* (?:more|fewer|less|times)\\b))', 'plus '),
  phrase('number of', 'count of'),
  // Of stuff one measures only: "the loan amount" or "an amount of money" is no quantity.
  phrase(
    'amount of(?= (?:water|flour|sugar|milk|juice|paint|food|sand|rice|oil|gas|fuel|soil|seed|feed|hay)\\b)',
    'quantity of',
  ),
  phrase('each of', 'every one of'),
  phrase('needs to', 'has to'),
  phrase('need to', 'have to'),
  phrase('went to', 'headed to'),
  phrase('goes to', 'heads to'),
  phrase('wants to', 'would like to'),
  phrase('wanted to', 'hoped to'),
  phrase('has to', 'must'),
  phrase('have to', 'need to'),
  phrase('is going to', 'will'),
  phrase('are going to', 'will'),
  // Not "how many" -> "what number of": it reads stilted ("what number of pupils").
  phrase('(?<!\\b(?:find|out|determine) )how much money', 'what amount of money'),
  phrase('how long', 'how much time'),
  phrase('(?<!\\b(?:find|out|determine) )how much(?= (?:is|was|will|did|does|do|would|should|can) )', 'what'),
  phrase('in total', 'altogether'),
  phrase('in all', 'altogether'),
  // "a total of 12 spoons" is not "altogether 12 spoons": the phrase stands before its number.
  phrase('a total of', 'an overall total of'),
  phrase('per day', 'a day'),
  phrase('per week', 'a week'),
  phrase('per hour', 'an hour'),
  phrase('per month', 'a month'),
  phrase('per (?=dozen|pound|pot|box|bag|kilogram|ounce|minute|person|item|page|cup)', 'for each '),
  phrase('each day', 'every day'),
  phrase('each week', 'every week'),
  phrase('each month', 'every month'),
  phrase('a lot of', 'lots of'),
  phrase('at the end of', 'by the end of'),
  // Before an amount only, and not after one: "11 more than half as many", "60 feet more than
  // Sam" are comparisons, never "11 over half".
  phrase('(?<!\\d\\S* (?:\\S+ )?)more than(?= \\$?\\d)', 'over'),
  phrase('so that', 'in order that'),
  phrase('because', 'since'),
  phrase('in order to', 'to'),
  phrase('is able to', 'can'),
  phrase('can (?=\\w+ \\$?\\d)', 'is able to '),
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
