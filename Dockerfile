# skillport as a container: `skillport serve` over Streamable HTTP on port 8080.
#
#   docker build -t skillport .
#   docker run --init -p 127.0.0.1:8080:8080 skillport
#     -> MCP endpoint http://127.0.0.1:8080/mcp, serving the bundled skills
#   docker run --init -p 127.0.0.1:8080:8080 -v "$PWD/my-skills:/skills:ro" skillport
#     -> the same, serving your own folder (mounted over the image's /skills)
#   docker run --init -p 8080:8080 skillport serve https://example.com/skills.git \
#       --http 0.0.0.0:8080 --allow-host skills.example.com
#     -> a git source, fetched into the /var/cache/skillport volume
#
# Host names: bound to 0.0.0.0, skillport still accepts only the Host headers
# localhost, 127.0.0.1 and [::1] (any port) by default, its guard against DNS
# rebinding, and logs a warning saying so at start. That is what a client on
# the Docker host sends through `-p 127.0.0.1:8080:8080`. Clients that reach the
# container by another name (a DNS name, a compose service name, the host's
# address) need it named: `--allow-host NAME` (repeatable; `*` allows any,
# e.g. behind a proxy that checks Host itself). A browser client's Origin needs
# `--allow-origin`. Arguments after the image name replace the whole CMD, so
# repeat `serve /skills --http 0.0.0.0:8080` before them. A token that callers
# must send: `-e SKILLPORT_AUTH_TOKEN=...` (or the --auth-* OAuth options).
#
# Build arguments:
#   BASE                 the Node 20 image both stages start from (Debian-based,
#                        with node and npm under /usr/local as the official images)
#   NPM_CONFIG_REGISTRY  another npm registry for the build (no credentials in it:
#                        build arguments are kept in the build stage's history)
#   NPM_EXTRA_CA_CERTS   PEM text of certificate authorities npm trusts besides
#                        Node's own, for a build behind a TLS-inspecting proxy
#
# The image is made with the classic builder as well as BuildKit: no
# `RUN --mount`, no heredocs.

ARG BASE=node:20-bookworm-slim

# ---- build: the TypeScript compiled, then only the production dependencies kept
FROM ${BASE} AS build
WORKDIR /src
ARG NPM_CONFIG_REGISTRY
ARG NPM_EXTRA_CA_CERTS
COPY package.json package-lock.json ./
# --ignore-scripts: nothing the dependencies ship runs here (no install script is
# needed to compile), and `prepare` would build before the sources are copied.
RUN set -eu; \
    if [ -n "${NPM_EXTRA_CA_CERTS:-}" ]; then \
      printf '%s\n' "$NPM_EXTRA_CA_CERTS" > /tmp/extra-ca.pem; \
      export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; \
    fi; \
    npm ci --ignore-scripts --no-audit --no-fund; \
    rm -f /tmp/extra-ca.pem
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# Source maps and declarations serve editors and debuggers, not the server.
RUN set -eu; \
    npm run build; \
    find dist \( -name '*.map' -o -name '*.d.ts' \) -delete; \
    npm prune --omit=dev --ignore-scripts --no-audit --no-fund; \
    find node_modules \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete; \
    find node_modules -depth -type d -empty -delete

# ---- runtime
FROM ${BASE}

# git (with ca-certificates) for git sources over https. ssh:// sources would
# need openssh-client too, which is left out. A file:// repository mounted into
# the container must belong to uid 10001: git refuses to read one owned by
# another user ("dubious ownership").
#
# Left out of git's files, to keep the image small: Perl's library (git's
# Perl commands, such as svn and send-email, are not used; perl-base stays) and
# the helper programs skillport never starts (daemon, shell, http-backend,
# http-push, http-fetch, imap-send, scalar). The packages stay installed as far
# as dpkg knows, so apt works in derived images; `apt-get install --reinstall
# libperl5.36 perl-modules-5.36 git` brings the files back.
RUN set -eu; \
    export DEBIAN_FRONTEND=noninteractive; \
    apt-get update; \
    apt-get install -y --no-install-recommends \
      -o 'DPkg::Options::=--path-exclude=/usr/share/perl/*' \
      -o 'DPkg::Options::=--path-exclude=/usr/lib/*/perl/*' \
      -o 'DPkg::Options::=--path-exclude=/usr/lib/*/libperl.so*' \
      -o 'DPkg::Options::=--path-exclude=/usr/share/perl5/*' \
      -o 'DPkg::Options::=--path-exclude=/usr/share/gitweb/*' \
      -o 'DPkg::Options::=--path-exclude=/usr/lib/git-core/git-daemon' \
      -o 'DPkg::Options::=--path-exclude=/usr/lib/git-core/git-shell' \
      -o 'DPkg::Options::=--path-exclude=/usr/bin/git-shell' \
      -o 'DPkg::Options::=--path-exclude=/usr/lib/git-core/git-http-backend' \
      -o 'DPkg::Options::=--path-exclude=/usr/lib/git-core/git-http-push' \
      -o 'DPkg::Options::=--path-exclude=/usr/lib/git-core/git-http-fetch' \
      -o 'DPkg::Options::=--path-exclude=/usr/lib/git-core/git-imap-send' \
      -o 'DPkg::Options::=--path-exclude=/usr/lib/git-core/scalar' \
      -o 'DPkg::Options::=--path-exclude=/usr/bin/scalar' \
      git ca-certificates; \
    apt-get clean; \
    rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/cache/debconf/*-old /var/lib/dpkg/*-old \
      /var/log/apt /var/log/dpkg.log /var/log/alternatives.log; \
    git --version; \
    groupadd --gid 10001 skillport; \
    useradd --uid 10001 --gid 10001 --home-dir /nonexistent --no-create-home --shell /usr/sbin/nologin skillport; \
    mkdir -p /skills /var/cache/skillport; \
    chown 10001:10001 /var/cache/skillport

WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY bin ./bin
# The bundled skills twice: where the package serves them when no folder is
# given, and in /skills, which the default CMD serves and a mount replaces.
COPY skills ./skills
COPY skills /skills

# A git source's checkouts: $XDG_CACHE_HOME/skillport/git (src/cli/context.ts
# gitCacheDir). Keep the volume between runs so a restart fetches only what is new.
ENV XDG_CACHE_HOME=/var/cache
VOLUME ["/skills", "/var/cache/skillport"]

USER 10001:10001
EXPOSE 8080

# Liveness, not readiness: /healthz answers 200 while the process serves.
# /readyz also turns 503 while Redis (--redis) is out of reach, and an
# orchestrator that restarts unhealthy containers would restart every replica
# in a Redis outage; point a load balancer's readiness check at /readyz.
# Probed with node's fetch, as the base image need not have curl or wget; a
# server on another port sets HEALTHCHECK_URL (e.g. http://127.0.0.1:3000/healthz).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch(process.env.HEALTHCHECK_URL||'http://127.0.0.1:8080/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# serve drains on SIGTERM (requests in flight are answered, streams end, up to
# 5 s) and exits 0. node as PID 1 receives it, since skillport handles the
# signal; `docker run --init` adds an init that also reaps orphaned processes.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/bin/skillport.js"]
CMD ["serve", "/skills", "--http", "0.0.0.0:8080"]

ARG BASE
LABEL org.opencontainers.image.title="skillport" \
      org.opencontainers.image.description="Serve Agent Skills and prompt files to any MCP client over Streamable HTTP" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.base.name="${BASE}"
