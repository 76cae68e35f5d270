package main

import (
	"fmt"
	"sort"
	"strings"
)

// catalogOptions collects repeated --catalog-option KEY=VALUE flags:
// Paimon catalog options, as Flink's CREATE CATALOG takes them (e.g.
// metastore=jdbc, uri=jdbc:postgresql://…, lock.enabled=true).
type catalogOptions map[string]string

func (c catalogOptions) String() string {
	var pairs []string
	for k, v := range c {
		pairs = append(pairs, k+"="+v)
	}
	sort.Strings(pairs)
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
	merged := map[string]string{}
	for k, v := range options {
		merged[k] = v
	}
	for k, v := range c {
		merged[k] = v
	}
	return merged
}
