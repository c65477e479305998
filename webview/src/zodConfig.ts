/**
 * Must be the webview's first import: zod's JIT probes `new Function`, which the strict CSP forbids (and reports
 * as a violation even though zod catches it). Jitless parsing needs no eval.
 */
import { z } from 'zod';

z.config({ jitless: true });
