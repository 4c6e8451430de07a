#!/bin/sh
# What an image's node_modules holds that no service runs (the image build runs it in
# node_modules' parent after each service's install): TypeScript files (declarations,
# and sources Node.js never runs under node_modules), source maps and Markdown, licence
# files kept; and bintrees' test suite with its sample data (2.3 MB; prom-client's
# dependency).
set -eu
find node_modules/.pnpm -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' -o -name '*.map' -o -name '*.md' \) -not -iname 'licen[cs]e*' -delete
rm -rf node_modules/.pnpm/bintrees@*/node_modules/bintrees/test
