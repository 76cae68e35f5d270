package jdbc

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
)

// Catalog option keys, as Java names them (CatalogOptions,
// JdbcCatalogOptions, JdbcCatalog.PROPERTY_PREFIX).
const (
	optionMetastore        = "metastore"
	optionURI              = "uri"
	optionCatalogKey       = "catalog-key"
	optionLockEnabled      = "lock.enabled"
	optionLockType         = "lock.type"
	optionLockCheckSleep   = "lock-check-max-sleep"
	optionLockTimeout      = "lock-acquire-timeout"
	optionLockKeyMaxLength = "lock-key-max-length"
	optionSyncProperties   = "sync-all-properties"
	optionWarehouse        = "warehouse"
	propertyPrefix         = "jdbc."

	// MetastoreJDBC is the metastore option's value that selects this
	// catalog.
	MetastoreJDBC = "jdbc"
)

// Options are the settings of a JDBC catalog, parsed from Paimon's
// catalog options by ParseOptions.
type Options struct {
	// URI is the JDBC URL: jdbc:postgresql://…, jdbc:mysql://…,
	// jdbc:mariadb://… or jdbc:sqlite:<file>.
	URI string
	// Properties are the jdbc.* options without the prefix; lakesql reads
	// user and password.
	Properties map[string]string
	// CatalogKey separates several catalogs sharing one database
	// (default "jdbc").
	CatalogKey string
	// LockEnabled makes writers publish under the catalog lock. Java's
	// default is on exactly when the warehouse is on an object store
	// (AbstractCatalog.lockEnabled).
	LockEnabled bool
	// LockCheckMaxSleep caps the wait between tries to acquire (8 s).
	LockCheckMaxSleep time.Duration
	// LockAcquireTimeout bounds the wait for the lock (8 min); it is also
	// the age after which any acquirer deletes a lock row as abandoned.
	LockAcquireTimeout time.Duration
	// LockKeyMaxLength is the width of paimon_distributed_locks.lock_id.
	LockKeyMaxLength int
}

// IsJDBC reports whether catalog options select Paimon's JDBC catalog.
func IsJDBC(options map[string]string) bool {
	return strings.EqualFold(options[optionMetastore], MetastoreJDBC)
}

// ParseOptions reads Paimon's catalog options. objectStore says whether
// the warehouse is on an object store, which decides lock.enabled's
// default as it does in Java. Options lakesql cannot honour are refused
// with an error naming them, wrapping lakeerr.ErrUnsupported.
func ParseOptions(options map[string]string, objectStore bool) (Options, error) {
	o := Options{
		URI:                options[optionURI],
		Properties:         map[string]string{},
		CatalogKey:         valueOr(options, optionCatalogKey, "jdbc"),
		LockEnabled:        objectStore,
		LockCheckMaxSleep:  8 * time.Second,
		LockAcquireTimeout: 8 * time.Minute,
		LockKeyMaxLength:   255,
	}
	if o.URI == "" {
		return o, fmt.Errorf("jdbc catalog: the %q option (a JDBC URL) is required", optionURI)
	}
	for key, value := range options {
		if err := o.apply(key, value); err != nil {
			return o, fmt.Errorf("jdbc catalog: option %s=%q: %w", key, value, err)
		}
	}
	return o, nil
}

func valueOr(options map[string]string, key, fallback string) string {
	if v, ok := options[key]; ok && v != "" {
		return v
	}
	return fallback
}

// apply reads one option into o.
func (o *Options) apply(key, value string) error {
	var err error
	switch key {
	case optionMetastore, optionURI, optionCatalogKey, optionWarehouse:
	case optionLockEnabled:
		o.LockEnabled, err = strconv.ParseBool(value)
	case optionLockType:
		if value != MetastoreJDBC {
			err = fmt.Errorf("%w: lakesql takes the JDBC catalog's own lock only", lakeerr.ErrUnsupported)
		}
	case optionLockCheckSleep:
		o.LockCheckMaxSleep, err = spec.ParseDuration(value)
	case optionLockTimeout:
		o.LockAcquireTimeout, err = spec.ParseDuration(value)
	case optionLockKeyMaxLength:
		o.LockKeyMaxLength, err = strconv.Atoi(value)
	case optionSyncProperties:
		if v, _ := strconv.ParseBool(value); v {
			err = fmt.Errorf("%w: lakesql does not keep paimon_table_properties in step with schema changes", lakeerr.ErrUnsupported)
		}
	default:
		err = o.applyProperty(key, value)
	}
	return err
}

func (o *Options) applyProperty(key, value string) error {
	name, ok := strings.CutPrefix(key, propertyPrefix)
	if !ok {
		return fmt.Errorf("%w: not a catalog option lakesql knows", lakeerr.ErrUnsupported)
	}
	o.Properties[name] = value
	return nil
}
