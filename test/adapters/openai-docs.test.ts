// docs/openai.md's runnable examples, type-checked against the built package and the newest openai types, then run.
import { docExamples } from './doc-examples.ts';

docExamples('openai.md', 4);
