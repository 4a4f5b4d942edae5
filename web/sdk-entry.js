// The one module bundled from npm: the Embedded App SDK and its mock, for bot/table/static/table.js (built by make table-bundle).
export { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
