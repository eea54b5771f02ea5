#!/usr/bin/env bash
# npm run test:install: what a deployment does, on a fresh clone of the committed tree. Build with
# the full install, replace it with a production-only install (npm ci --omit=dev), start the
# compiled server on PostgreSQL in production mode and wait for /readyz.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
admin_url="${DATABASE_URL:?set DATABASE_URL to a PostgreSQL server where a database may be created}"
port="${INSTALL_CHECK_PORT:-3190}"
work="$(mktemp -d)"
database="portal_install_$(date +%s)_$$"
server_pid=""

psql_admin() { psql "$admin_url" -v ON_ERROR_STOP=1 -qAtc "$1"; }
finish() {
  status=$?
  # npm runs the server as its child: end the whole process group, not npm alone.
  if [ -n "$server_pid" ]; then kill -- "-$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  psql_admin "drop database if exists \"$database\" with (force)" || true
  rm -rf "$work"
  if [ "$status" -ne 0 ]; then echo "production install check: FAILED" >&2; fi
}
trap finish EXIT

git clone --quiet "$root" "$work/portal"
cd "$work/portal"
echo "== full install and build ($(node --version))"
npm ci --no-audit --no-fund --loglevel=error
npm run build --silent
echo "== production-only install"
npm ci --omit=dev --no-audit --no-fund --loglevel=error
for tool in vite esbuild tsx typescript vitest; do
  if [ -e "node_modules/$tool" ]; then echo "a production install should not hold $tool" >&2; exit 1; fi
done

psql_admin "create database \"$database\""
database_url="$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/" + process.argv[2]; console.log(u.href)' "$admin_url" "$database")"
echo "== npm start in production on PostgreSQL"
audit_chain_key="$(node -e 'console.log(require("node:crypto").randomBytes(32).toString("hex"))')"
NODE_ENV=production PUBLIC_URL="http://127.0.0.1:$port" HOST=127.0.0.1 PORT="$port" \
  AUDIT_CHAIN_KEY="$audit_chain_key" DATABASE_URL="$database_url" LOG_LEVEL=warn setsid npm start --silent > "$work/server.log" 2>&1 &
server_pid=$!
started=$(date +%s)
until ready="$(curl -sf "http://127.0.0.1:$port/readyz")"; do
  if ! kill -0 "$server_pid" 2>/dev/null || [ $(( $(date +%s) - started )) -gt 60 ]; then
    echo "the production server did not become ready:" >&2
    cat "$work/server.log" >&2
    exit 1
  fi
  sleep 0.2
done
echo "/readyz: $ready"
case "$ready" in *'"database":"postgres"'*) ;; *) echo "expected the PostgreSQL database" >&2; exit 1 ;; esac
schools="$(curl -sf "http://127.0.0.1:$port/lookup/find?text=Lincoln%20High%20School&category=hs_ceeb&max_results=5")"
case "$schools" in *'Lincoln High School'*) echo "school search: finds Lincoln High School" ;; *)
  echo "the school search found no Lincoln High School: $schools" >&2; exit 1 ;; esac
echo "== the commands run from the build in the production install"
export NODE_ENV=production PUBLIC_URL="http://127.0.0.1:$port" DATABASE_URL="$database_url" \
  AUDIT_CHAIN_KEY="$audit_chain_key"
npm run --silent lookup:import -- --check --category hs_ceeb lookup-lists/high_schools.csv
npm run --silent retention -- --before 2000-01-01 --dry-run | head -n 1
echo "production install check: passed"
