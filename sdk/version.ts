/** The SDK's version: sent to the iframe as `jsver`, and the npm package's version (sdk/build-package.ts). */
export const SDK_VERSION = '2.0.0';
