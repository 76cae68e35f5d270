# lakesql MySQL server. The image listens on 0.0.0.0:3306, so it refuses to
# start without a config file giving every account a password: mount one at
# /etc/lakesql/lakesql.json (see docs/lakesql-server.example.json and
# docs/server.md) and the warehouse at /var/lib/lakesql/warehouse:
#
#   docker build -t lakesql .
#   docker run -p 3306:3306 \
#     -v "$PWD/lakesql.json:/etc/lakesql/lakesql.json:ro" \
#     -v "$PWD/warehouse:/var/lib/lakesql/warehouse" lakesql
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/lakesql ./cmd/lakesql

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home-dir /var/lib/lakesql lakesql \
    && mkdir -p /var/lib/lakesql/warehouse /etc/lakesql \
    && chown -R lakesql:lakesql /var/lib/lakesql
COPY --from=build /out/lakesql /usr/local/bin/lakesql
USER lakesql
VOLUME /var/lib/lakesql/warehouse
EXPOSE 3306
# docker stop sends SIGTERM: running statements finish within the config's
# shutdown_timeout (default 30s), so give docker stop a longer -t than that.
STOPSIGNAL SIGTERM
ENTRYPOINT ["lakesql"]
CMD ["serve", "--listen", "0.0.0.0:3306", "--warehouse", "/var/lib/lakesql/warehouse", "--config", "/etc/lakesql/lakesql.json"]
