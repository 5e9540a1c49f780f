// docs/langchain.md's runnable examples, type-checked against the built package and langchain 1.x, then run.
import { docExamples } from './doc-examples.ts';

docExamples('langchain.md', 1);
