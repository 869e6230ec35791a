// What a desktop host does with a bundle, by the @anthropic-ai/mcpb library the hosts use:
// unpack it, then resolve the manifest's mcp_config for the user's form values.
//   node tests/mcpb_host.mjs MCPB_PACKAGE_DIR BUNDLE OUT_DIR USER_CONFIG_JSON
// prints {"latest_manifest_version", "manifest", "mcp_config"} as JSON.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, sep } from "node:path";
import { pathToFileURL } from "node:url";

const [packageDir, bundle, outputDir, userConfigJson] = process.argv.slice(2);
const mcpb = await import(pathToFileURL(join(packageDir, "dist", "index.js")).href);

const unpacked = await mcpb.unpackExtension({ mcpbPath: bundle, outputDir, silent: true });
if (!unpacked) {
  console.error(`mcpb could not unpack ${bundle}`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(join(outputDir, "manifest.json"), "utf-8"));
const home = homedir();
const mcpConfig = await mcpb.getMcpConfigForManifest({
  manifest,
  extensionPath: outputDir,
  systemDirs: {
    HOME: home,
    DESKTOP: join(home, "Desktop"),
    DOCUMENTS: join(home, "Documents"),
    DOWNLOADS: join(home, "Downloads"),
  },
  userConfig: JSON.parse(userConfigJson),
  pathSeparator: sep,
});
console.log(
  JSON.stringify({
    latest_manifest_version: mcpb.LATEST_MANIFEST_VERSION,
    manifest,
    mcp_config: mcpConfig,
  }),
);
