package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// catalogOptions collects repeated --catalog-option KEY=VALUE flags:
// Paimon catalog options, as Flink's CREATE CATALOG takes them (e.g.
// metastore=jdbc, uri=jdbc:postgresql://…, lock.enabled=true).
type catalogOptions map[string]string

func (c catalogOptions) String() string {
	var pairs []string
	for _, k := range slices.Sorted(maps.Keys(c)) {
		pairs = append(pairs, k+"="+c[k])
	}
	return strings.Join(pairs, ",")
}

func (c catalogOptions) Set(pair string) error {
	key, value, ok := strings.Cut(pair, "=")
	if !ok || key == "" {
		return fmt.Errorf("catalog option %q is not KEY=VALUE", pair)
	}
	c[key] = value
	return nil
}

// applyTo overrides the config file's catalog options with the flags.
func (c catalogOptions) applyTo(options map[string]string) map[string]string {
	if len(c) == 0 {
		return options
	}
	merged := maps.Clone(options)
	if merged == nil {
		merged = map[string]string{}
	}
	maps.Copy(merged, c)
	return merged
}
