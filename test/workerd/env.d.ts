// The vitest plugin's `cloudflare:test` module, and the bindings test/workerd/wrangler.jsonc gives the test Worker.
/// <reference path="../../node_modules/@cloudflare/vitest-plugin/types/cloudflare-test.d.ts" />
