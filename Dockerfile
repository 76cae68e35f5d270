FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -o /out/lakesql ./cmd/lakesql

FROM debian:bookworm-slim
COPY --from=build /out/lakesql /usr/local/bin/lakesql
COPY testdata/fixtures /usr/share/lakesql/fixtures
ENTRYPOINT ["lakesql"]
CMD ["cat", "/usr/share/lakesql/fixtures/paimon-java/pk_table_scan_and_read_mor.db/pk_table_scan_and_read_mor"]
