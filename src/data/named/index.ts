import type { NamedDataset } from '../named-dataset.js';
import { ALPACA } from './alpaca.js';
import { ARC_CHALLENGE } from './arc-challenge.js';
import { COMMONSENSEQA } from './commonsenseqa.js';
import { GSM_SYMBOLIC } from './gsm-symbolic.js';
import { GSM8K } from './gsm8k.js';
import { HOTPOTQA } from './hotpotqa.js';
import { LADDER_SEEDS } from './ladder-seeds.js';
import { NQ_OPEN } from './nq-open.js';
import { SIMPLEQA } from './simpleqa.js';
import { TRIVIAQA } from './triviaqa.js';
import { TRUTHFULQA } from './truthfulqa.js';
import { TRUTHFULQA_MC } from './truthfulqa-mc.js';

/** waver's named datasets, one line each (docs/datasets.md#catalog); the order is the one error messages list. */
export const NAMED_DATASETS: readonly NamedDataset[] = [
  GSM8K,
  GSM_SYMBOLIC,
  LADDER_SEEDS,
  ARC_CHALLENGE,
  COMMONSENSEQA,
  TRUTHFULQA_MC,
  TRUTHFULQA,
  NQ_OPEN,
  TRIVIAQA,
  HOTPOTQA,
  SIMPLEQA,
  ALPACA,
];
