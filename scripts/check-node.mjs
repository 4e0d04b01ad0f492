// Fails loudly when an npm script runs on anything but Node 24 (see STACK.md: the `node`
// devDependency puts Node 24 first on PATH for `npm run`; a direct binary or --ignore-scripts does not).
const major = Number(process.versions.node.split('.')[0]);
if (major !== 24) {
  console.error(
    `\n  Ordo needs Node.js 24, but this script runs on ${process.version}.\n` +
      `  Run it through npm (npm start, npm test, npm run …) after \`npm install\`,\n` +
      `  which puts the \`node\` devDependency (Node 24) first on PATH.\n`,
  );
  process.exit(1);
}
