// Package server is the lakesql MySQL server: go-mysql-server's wire
// server over a sqlbackend warehouse, with what lakesql adds around it.
//
//   - Accounts: authentication is always on. Administrators come from the
//     config; CREATE USER and GRANT are saved in the warehouse as numbered
//     versions (_lakesql/privileges-<n>.bin, published with put-if-absent
//     and merged when another server took the number; PrivilegesFile is
//     read only while no version exists), and each server picks up the
//     others' changes when a client authenticates; a passwordless root
//     exists only on loopback listeners, and other listeners refuse to
//     start while any account has no password.
//   - Connections: over MaxConnections a client gets MySQL error 1040
//     instead of a dropped socket; a client that does not authenticate
//     within ConnectTimeout is cut; a panic in a command becomes that
//     command's error.
//   - Shutdown: Shutdown stops accepting, lets every connection finish its
//     running statement (commits included) and closes connections as they
//     go idle, within a deadline.
//   - Files: LOAD DATA INFILE, INTO OUTFILE and LOAD_FILE() are confined to
//     FilesDir.
//
// See docs/server.md for the config file and operations.
package server
