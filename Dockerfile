# syntax=docker/dockerfile:1
#
# stud: the Seven Card Stud server. Build with `docker build -t stud .` (BuildKit, the default
# builder of current Docker) or through docker-compose.yml; see README "Running in production".

# ---- build ----------------------------------------------------------------------------------
# rust:1 is the newest stable toolchain (the workspace needs 1.85+, edition 2024); bookworm has
# the C compiler the bundled SQLite needs.
FROM rust:1-bookworm AS build
WORKDIR /src
# The whole workspace (.dockerignore keeps out target/, .git, databases): every member's
# Cargo.toml must be there, and migrations/ is embedded in the binary at compile time.
COPY . .
# target/ is a cache mount, so the binary is copied out of it in the same step.
RUN --mount=type=cache,id=stud-cargo-registry,target=/usr/local/cargo/registry \
    --mount=type=cache,id=stud-cargo-git,target=/usr/local/cargo/git \
    --mount=type=cache,id=stud-target,target=/src/target,sharing=locked \
    cargo build --release --locked -p stud-cli \
 && install -D -m 0755 target/release/stud /out/stud

# ---- runtime --------------------------------------------------------------------------------
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# A fixed, numeric non-root user, so `runAsNonRoot` style checks and volume ownership work.
RUN groupadd --system --gid 10001 stud \
 && useradd --system --uid 10001 --gid stud --home-dir /data --no-create-home \
      --shell /usr/sbin/nologin stud \
 && mkdir -p /data \
 && chown stud:stud /data
COPY --from=build /out/stud /usr/local/bin/stud

# The default database is sqlite://stud.db in the working directory, i.e. /data/stud.db on this
# volume. With DATABASE_URL=postgres://... nothing is written here.
WORKDIR /data
VOLUME ["/data"]
USER 10001:10001

ENV STUD_BIND=0.0.0.0:8080
EXPOSE 8080

# GET /healthz answers 200 "ok". No curl in the image: bash's /dev/tcp, on the port of STUD_BIND.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${STUD_BIND##*:} && printf 'GET /healthz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && read -r _ code _ <&3 && [ \"$code\" = 200 ]"]

# SIGTERM (docker stop) makes the server void the hand in progress, cash everyone out and flush
# the store, for up to 30 s: give it more than that (`docker stop -t 40`, compose's
# stop_grace_period: 40s).
ENTRYPOINT ["stud"]
CMD ["serve"]
