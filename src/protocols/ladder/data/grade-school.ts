/**
 * Built-in ladder seeds: grade-school word problems written for waver (not taken from any
 * dataset), so `waver ladder` and `waver suite build` run offline on a fresh machine.
 *
 * Each problem is defined by its quantities; the question text is filled from them and the gold
 * answer is computed from them by code, never typed in, so a wording edit cannot silently break
 * a key. grade-school.test.ts recomputes every key from the numbers as they appear in the text.
 */
import type { NumberSeed } from '../types.js';

type Quantities = Record<string, number>;

function problem<Q extends Quantities>(
  slug: string,
  q: Q,
  text: (q: Q) => string,
  answer: (q: Q) => number,
): NumberSeed {
  // Money answers are rounded to cents so binary floating point (0.1 + 0.2) cannot leak into a key.
  return {
    id: `builtin-${slug}`,
    question: text(q),
    gold: Math.round(answer(q) * 100) / 100,
    source: 'builtin',
  };
}

/** A number as a person writes it: thousands grouped with commas, never scientific notation. */
function num(x: number): string {
  const [whole = '', frac] = String(x).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** Dollars: whole amounts bare (`$12`), others with cents (`$2.40`). */
function usd(x: number): string {
  return Number.isInteger(x) ? `$${num(x)}` : `$${x.toFixed(2)}`;
}

export const GRADE_SCHOOL_SEEDS: NumberSeed[] = [
  problem(
    'bakery-muffins',
    { trays: 5, perTray: 24, morning: 47, afternoon: 38 },
    (q) =>
      `A bakery bakes ${q.trays} trays of muffins with ${q.perTray} muffins on each tray. It sells ${q.morning} muffins in the morning and ${q.afternoon} muffins in the afternoon. How many muffins are left at the end of the day?`,
    (q) => q.trays * q.perTray - q.morning - q.afternoon,
  ),
  problem(
    'library-shelves',
    { shelves: 8, perShelf: 35, donated: 26, bought: 40 },
    (q) =>
      `A school library has ${q.shelves} shelves that hold ${q.perShelf} books each. The librarian gives away ${q.donated} old books and buys ${q.bought} new ones. How many books does the library have now?`,
    (q) => q.shelves * q.perShelf - q.donated + q.bought,
  ),
  problem(
    'pencil-share',
    { boxes: 9, perBox: 16, students: 24 },
    (q) =>
      `Ms. Ortiz buys ${q.boxes} boxes of pencils with ${q.perBox} pencils in each box. She shares all the pencils equally among her ${q.students} students. How many pencils does each student get?`,
    (q) => (q.boxes * q.perBox) / q.students,
  ),
  problem(
    'train-trip',
    { speed1: 60, hours1: 3, speed2: 45, hours2: 2 },
    (q) =>
      `A train travels at ${q.speed1} miles per hour for ${q.hours1} hours. Then it slows down to ${q.speed2} miles per hour for ${q.hours2} more hours. How many miles does the train travel in total?`,
    (q) => q.speed1 * q.hours1 + q.speed2 * q.hours2,
  ),
  problem(
    'lemonade-profit',
    { cups: 32, price: 1.25, supplies: 8.5 },
    (q) =>
      `Priya sells ${q.cups} cups of lemonade for ${usd(q.price)} each. She spent ${usd(q.supplies)} on lemons and sugar. How many dollars of profit does she make?`,
    (q) => q.cups * q.price - q.supplies,
  ),
  problem(
    'garden-fence',
    { length: 12, width: 7, perMeter: 4 },
    (q) =>
      `A rectangular garden is ${q.length} meters long and ${q.width} meters wide. Fencing costs ${usd(q.perMeter)} per meter. How many dollars does it cost to put a fence around the whole garden?`,
    (q) => 2 * (q.length + q.width) * q.perMeter,
  ),
  problem(
    'aquarium',
    { goldfish: 14, times: 3, fewer: 9 },
    (q) =>
      `An aquarium has ${q.goldfish} goldfish. It has ${q.times} times as many guppies as goldfish, and ${q.fewer} fewer tetras than guppies. How many fish are in the aquarium altogether?`,
    (q) => q.goldfish + q.goldfish * q.times + (q.goldfish * q.times - q.fewer),
  ),
  problem(
    'marble-bags',
    { start: 58, gave: 13, won: 15, bags: 4 },
    (q) =>
      `Omar has ${q.start} marbles. He gives ${q.gave} marbles to his sister and then wins ${q.won} more in a game at school. He puts all his marbles into ${q.bags} bags with the same number in each bag. How many marbles are in each bag?`,
    (q) => (q.start - q.gave + q.won) / q.bags,
  ),
  problem(
    'field-trip-buses',
    { students: 173, teachers: 9, seats: 45 },
    (q) =>
      `${q.students} students and ${q.teachers} teachers are going on a field trip. Each bus can carry ${q.seats} people. What is the smallest number of buses they need?`,
    (q) => Math.ceil((q.students + q.teachers) / q.seats),
  ),
  problem(
    'pizza-slices',
    { pizzas: 4, slices: 8, dinner: 19, lunch: 7 },
    (q) =>
      `A family orders ${q.pizzas} pizzas, and each pizza is cut into ${q.slices} slices. They eat ${q.dinner} slices at dinner and ${q.lunch} slices for lunch the next day. How many slices are left?`,
    (q) => q.pizzas * q.slices - q.dinner - q.lunch,
  ),
  problem(
    'bike-savings',
    { price: 240, saved: 60, weekly: 15 },
    (q) =>
      `Jun wants a bike that costs ${usd(q.price)}. He has already saved ${usd(q.saved)}, and he earns ${usd(q.weekly)} each week by walking dogs. How many weeks must he work to have exactly enough for the bike?`,
    (q) => (q.price - q.saved) / q.weekly,
  ),
  problem(
    'cookie-flour',
    { cups: 3, batch: 24, wanted: 96 },
    (q) =>
      `A cookie recipe uses ${q.cups} cups of flour to make ${q.batch} cookies. How many cups of flour are needed to make ${q.wanted} cookies?`,
    (q) => (q.cups * q.wanted) / q.batch,
  ),
  problem(
    'concert-change',
    { adult: 18, child: 11, adults: 4, children: 6, paid: 200 },
    (q) =>
      `Concert tickets cost ${usd(q.adult)} for an adult and ${usd(q.child)} for a child. A group buys ${q.adults} adult tickets and ${q.children} child tickets and pays with ${usd(q.paid)}. How many dollars of change should the group get back?`,
    (q) => q.paid - (q.adult * q.adults + q.child * q.children),
  ),
  problem(
    'water-tank',
    { capacity: 500, already: 140, rate: 20 },
    (q) =>
      `A water tank holds ${q.capacity} liters when it is full. It already has ${q.already} liters in it, and a hose adds ${q.rate} liters every minute. How many minutes will it take to fill the tank?`,
    (q) => (q.capacity - q.already) / q.rate,
  ),
  problem(
    'reading-pages',
    { monday: 25, wednesday: 38, book: 300 },
    (q) =>
      `Ana reads ${q.monday} pages of her book on Monday and twice as many pages on Tuesday. On Wednesday she reads ${q.wednesday} pages. If the book has ${q.book} pages, how many pages does she still have to read?`,
    (q) => q.book - (q.monday + 2 * q.monday + q.wednesday),
  ),
  problem(
    'egg-cartons',
    { eggs: 254, perCarton: 12, price: 3 },
    (q) =>
      `A farm collects ${q.eggs} eggs and packs them into cartons of ${q.perCarton}. Only full cartons are sold, at ${usd(q.price)} per carton. How many dollars does the farm make from the full cartons?`,
    (q) => Math.floor(q.eggs / q.perCarton) * q.price,
  ),
  problem(
    'jacket-sale',
    { price: 80, percentOff: 25, coupon: 10 },
    (q) =>
      `A jacket costs ${usd(q.price)}. This week it is on sale for ${q.percentOff}% off, and Sam also uses a ${usd(q.coupon)} coupon on the sale price. How many dollars does Sam pay for the jacket?`,
    (q) => q.price * (1 - q.percentOff / 100) - q.coupon,
  ),
  problem(
    'track-laps',
    { meters: 400, laps: 5, days: 6 },
    (q) =>
      `A running track is ${q.meters} meters around. Lena runs ${q.laps} laps every day for ${q.days} days. How many kilometers does she run in total?`,
    (q) => (q.meters * q.laps * q.days) / 1000,
  ),
  problem(
    'hall-chairs',
    { rows: 15, perRow: 20, taken: 187, arrive: 46 },
    (q) =>
      `A hall has ${q.rows} rows of chairs with ${q.perRow} chairs in each row. ${q.taken} chairs are already taken when ${q.arrive} more people arrive and sit down. How many chairs are still empty?`,
    (q) => q.rows * q.perRow - q.taken - q.arrive,
  ),
  problem(
    'stamp-museum',
    { keiko: 125, more: 40, given: 90 },
    (q) =>
      `Keiko has ${q.keiko} stamps. Her brother has ${q.more} more stamps than she does. Together they give ${q.given} stamps to a museum. How many stamps do the two of them have left?`,
    (q) => q.keiko + (q.keiko + q.more) - q.given,
  ),
  problem(
    'car-wash',
    { car: 12, truck: 20, cars: 35, trucks: 9, wages: 250 },
    (q) =>
      `A car wash charges ${usd(q.car)} for a car and ${usd(q.truck)} for a truck. On Saturday it washes ${q.cars} cars and ${q.trucks} trucks, and it pays ${usd(q.wages)} in wages. How many dollars are left after the wages are paid?`,
    (q) => q.car * q.cars + q.truck * q.trucks - q.wages,
  ),
  problem(
    'weekly-pay',
    { hours: 6, days: 5, rate: 14, weeks: 4 },
    (q) =>
      `Dev works ${q.hours} hours a day, ${q.days} days a week, and is paid ${usd(q.rate)} per hour. How many dollars does he earn in ${q.weeks} weeks?`,
    (q) => q.hours * q.days * q.rate * q.weeks,
  ),
  problem(
    'card-packs',
    { perPack: 15, packs: 8, duplicates: 23 },
    (q) =>
      `Each pack of trading cards has ${q.perPack} cards. Rosa buys ${q.packs} packs and gives away the ${q.duplicates} cards that are duplicates. How many cards does she keep?`,
    (q) => q.perPack * q.packs - q.duplicates,
  ),
  problem(
    'bread-batches',
    { mix: 15, rise: 65, bake: 40, batches: 3 },
    (q) =>
      `A baker needs ${q.mix} minutes to mix a batch of dough, ${q.rise} minutes to let it rise, and ${q.bake} minutes to bake it. She makes ${q.batches} batches, one after another. How many hours does this take?`,
    (q) => ((q.mix + q.rise + q.bake) * q.batches) / 60,
  ),
  problem(
    'apple-pies',
    { apples: 100, perPie: 8, slices: 6 },
    (q) =>
      `An orchard picks ${q.apples} apples for pies. Each pie needs ${q.perPie} apples, and they bake as many pies as they can. Each pie is cut into ${q.slices} slices. How many slices of pie are there?`,
    (q) => Math.floor(q.apples / q.perPie) * q.slices,
  ),
  problem(
    'notebook-change',
    { notebooks: 4, each: 2.4, pen: 1.35, bill: 20 },
    (q) =>
      `Tom buys ${q.notebooks} notebooks that cost ${usd(q.each)} each and a pen that costs ${usd(q.pen)}. He pays with a ${usd(q.bill)} bill. How much change, in dollars, does he get?`,
    (q) => q.bill - (q.notebooks * q.each + q.pen),
  ),
  problem(
    'paint-cans',
    { length: 20, height: 9, cover: 150, walls: 4 },
    (q) =>
      `A wall is ${q.length} feet long and ${q.height} feet high. One can of paint covers ${q.cover} square feet. How many cans of paint must be bought to paint ${q.walls} walls of this size?`,
    (q) => Math.ceil((q.length * q.height * q.walls) / q.cover),
  ),
  problem(
    'bike-shop-wheels',
    { bikes: 17, trikes: 9, flat: 5 },
    (q) =>
      `A bike shop has ${q.bikes} bicycles and ${q.trikes} tricycles. ${q.flat} of their wheels have flat tires. How many wheels are not flat?`,
    (q) => 2 * q.bikes + 3 * q.trikes - q.flat,
  ),
  problem(
    'fruit-basket',
    { fruits: 60 },
    (q) =>
      `A basket holds ${q.fruits} pieces of fruit. One third of them are apples, one quarter of them are pears, and the rest are bananas. How many bananas are in the basket?`,
    (q) => q.fruits - q.fruits / 3 - q.fruits / 4,
  ),
  problem(
    'temperature',
    { dawn: 48, rise: 3, hours: 6, fall: 11 },
    (q) =>
      `The temperature at dawn is ${q.dawn} degrees. It rises ${q.rise} degrees every hour for ${q.hours} hours, and then it falls ${q.fall} degrees by the evening. What is the temperature in the evening?`,
    (q) => q.dawn + q.rise * q.hours - q.fall,
  ),
  problem(
    'test-average',
    { a: 78, b: 85, c: 92, d: 81 },
    (q) =>
      `Four friends take a spelling test. They score ${q.a}, ${q.b}, ${q.c} and ${q.d} points. What is their average score?`,
    (q) => (q.a + q.b + q.c + q.d) / 4,
  ),
  problem(
    'cinema-sales',
    { seats: 240, percent: 75, price: 9 },
    (q) =>
      `A cinema has ${q.seats} seats. For the Friday show, ${q.percent}% of the seats are sold at ${usd(q.price)} per ticket. How many dollars do the ticket sales bring in?`,
    (q) => q.seats * (q.percent / 100) * q.price,
  ),
  problem(
    'farm-legs',
    { chickens: 23, cows: 14, newCows: 5 },
    (q) =>
      `A farmer has ${q.chickens} chickens and ${q.cows} cows. Then she buys ${q.newCows} more cows. How many legs do all her animals have together?`,
    (q) => 2 * q.chickens + 4 * (q.cows + q.newCows),
  ),
  problem(
    'book-boxes',
    { boxKg: 2, books: 24, bookKg: 0.75, boxes: 3 },
    (q) =>
      `An empty shipping box weighs ${q.boxKg} kilograms. Each box is packed with ${q.books} books that weigh ${q.bookKg} kilograms each. How many kilograms do ${q.boxes} packed boxes weigh?`,
    (q) => (q.boxKg + q.books * q.bookKg) * q.boxes,
  ),
  problem(
    'phone-bill',
    { base: 25, perGb: 6, included: 10, used: 14 },
    (q) =>
      `A phone plan costs ${usd(q.base)} a month plus ${usd(q.perGb)} for each gigabyte used over ${q.included} gigabytes. Maya uses ${q.used} gigabytes this month. How many dollars is her bill?`,
    (q) => q.base + (q.used - q.included) * q.perGb,
  ),
  problem(
    'family-ages',
    { nora: 9, times: 4, older: 29, years: 5 },
    (q) =>
      `Nora is ${q.nora} years old. Her father is ${q.times} times as old as she is, and her grandmother is ${q.older} years older than her father. How old will her grandmother be in ${q.years} years?`,
    (q) => q.nora * q.times + q.older + q.years,
  ),
  problem(
    'cupcake-boxes',
    { guests: 26, each: 2, perBox: 6 },
    (q) =>
      `${q.guests} guests are coming to a party, and each guest will eat ${q.each} cupcakes. Cupcakes are sold in boxes of ${q.perBox}. What is the smallest number of boxes that must be bought?`,
    (q) => Math.ceil((q.guests * q.each) / q.perBox),
  ),
  problem(
    'stair-climb',
    { from: 1, to: 12, steps: 18 },
    (q) =>
      `An office building has ${q.steps} steps between each floor and the next. Ben walks up the stairs from floor ${q.from} to floor ${q.to}. How many steps does he climb?`,
    (q) => (q.to - q.from) * q.steps,
  ),
  problem(
    'can-drive',
    { first: 30, extra: 5, weeks: 4 },
    (q) =>
      `A class collects ${q.first} cans in the first week of a food drive. Each week after that, it collects ${q.extra} more cans than the week before. How many cans does the class collect in ${q.weeks} weeks?`,
    // An arithmetic series, summed term by term so the test's closed form checks something.
    (q) => Array.from({ length: q.weeks }, (_, i) => q.first + i * q.extra).reduce((a, b) => a + b, 0),
  ),
  problem(
    'floor-tiles',
    { length: 12, width: 10, tile: 2, price: 3 },
    (q) =>
      `A room is ${q.length} feet long and ${q.width} feet wide. Square tiles measure ${q.tile} feet on each side and cost ${usd(q.price)} each. How many dollars do the tiles for the whole floor cost?`,
    (q) => ((q.length * q.width) / (q.tile * q.tile)) * q.price,
  ),
  problem(
    'simple-interest',
    { deposit: 500, rate: 4, years: 3 },
    (q) =>
      `Lila puts ${usd(q.deposit)} in a savings account that pays ${q.rate}% simple interest each year. She makes no other deposits or withdrawals. How many dollars are in the account after ${q.years} years?`,
    (q) => q.deposit + q.deposit * (q.rate / 100) * q.years,
  ),
  problem(
    'road-trip-gas',
    { mpg: 30, price: 3.6, miles: 450 },
    (q) =>
      `A car can drive ${q.mpg} miles on one gallon of gas, and gas costs ${usd(q.price)} per gallon. How many dollars does the gas cost for a ${q.miles} mile trip?`,
    (q) => (q.miles / q.mpg) * q.price,
  ),
  problem(
    'candy-neighbour',
    { friends: 5, bags: 3, perBag: 40, eats: 17 },
    (q) =>
      `${q.friends} friends share ${q.bags} bags of candy with ${q.perBag} pieces in each bag. Each friend eats ${q.eats} pieces, and they give the rest to a neighbour. How many pieces does the neighbour get?`,
    (q) => q.bags * q.perBag - q.friends * q.eats,
  ),
  problem(
    'raffle-charities',
    { tickets: 150, price: 2, donation: 100, prizes: 160, charities: 4 },
    (q) =>
      `A club sells ${q.tickets} raffle tickets at ${usd(q.price)} each and receives a ${usd(q.donation)} donation. The prizes cost ${usd(q.prizes)}. The rest of the money is shared equally by ${q.charities} charities. How many dollars does each charity get?`,
    (q) => (q.tickets * q.price + q.donation - q.prizes) / q.charities,
  ),
  problem(
    'toy-machine',
    { toys: 45, minutes: 15, hours: 8 },
    (q) =>
      `A factory machine makes ${q.toys} toys every ${q.minutes} minutes. How many toys does it make during a ${q.hours} hour shift?`,
    (q) => ((q.hours * 60) / q.minutes) * q.toys,
  ),
  problem(
    'team-lunch',
    { sandwich: 4.5, drink: 1.75, players: 12 },
    (q) =>
      `At a tournament, sandwiches cost ${usd(q.sandwich)} and drinks cost ${usd(q.drink)}. Each of the ${q.players} players on a team buys one sandwich and one drink. How many dollars does the team spend in all?`,
    (q) => q.players * (q.sandwich + q.drink),
  ),
  problem(
    'school-fair',
    { raised: 2400, prizes: 450, classes: 6 },
    (q) =>
      `A school fair raises ${usd(q.raised)}. The school spends ${usd(q.prizes)} on prizes and splits the rest equally among its ${q.classes} classes. How many dollars does each class receive?`,
    (q) => (q.raised - q.prizes) / q.classes,
  ),
  problem(
    'orchard-crates',
    { trees: 18, perTree: 65, perCrate: 30 },
    (q) =>
      `An orchard has ${q.trees} pear trees, and each tree gives ${q.perTree} pears. The pears are packed into crates that hold ${q.perCrate} pears each. How many crates can be filled completely?`,
    (q) => Math.floor((q.trees * q.perTree) / q.perCrate),
  ),
];
