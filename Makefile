# Developer shortcuts. The README's test command (go test ./...) is what CI runs.

.PHONY: test race fuzz bench build

build:
	go build -o lakesql ./cmd/lakesql

test:
	go test ./...

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
