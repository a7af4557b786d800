#!/usr/bin/env bash
# Vendor onnxruntime-web into vendor/ at build time: npm ci installs exactly the version and
# checksums pinned in package-lock.json, then the three files the page loads are copied.
# The page never fetches anything from a CDN.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
mkdir -p vendor
for f in ort.wasm.min.mjs ort-wasm-simd-threaded.mjs ort-wasm-simd-threaded.wasm; do
    cp "node_modules/onnxruntime-web/dist/$f" vendor/
done
echo "vendored onnxruntime-web $(node -p 'require("./node_modules/onnxruntime-web/package.json").version') into $(pwd)/vendor"
