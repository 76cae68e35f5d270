# Developer shortcuts. The README's test command (go test ./...) is what CI runs.

.PHONY: test race fuzz bench build clients s3

build:
	go build -o lakesql ./cmd/lakesql

test:
	go test ./...

# The real-client acceptance tests (mariadb CLI, Connector/J, PyMySQL,
# SQLAlchemy, Node mysql2), installing the clients first as .ci/run does.
clients:
	.ci/clients
	go test -count=1 -tags clients ./integration/ -run Clients

# The same tests with the warehouse on a real S3 server (versitygw).
s3:
	.ci/s3-tests

race:
	go test -race ./storage/...

# Runs each fuzz target for FUZZTIME (go test runs only their seed corpus).
FUZZTIME ?= 30s
fuzz:
	@for pkg in $$(go list ./storage/...); do \
		for target in $$(go test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			go test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

bench:
	go test -run '^$$' -bench . -benchmem ./storage/...
