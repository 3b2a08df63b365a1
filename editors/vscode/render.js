// node render.js DATA.json > page.html: the webview's page from a saved
// {passes, heatmap} pair (the replies of ptodb/passes and ptodb/heatmap),
// for the screenshot test and for looking at the view without VS Code.
'use strict';
const fs = require('fs');
const { renderHtml } = require('./webview');
const data = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
process.stdout.write(renderHtml(data.passes, data.heatmap));
