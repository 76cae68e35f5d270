package catalog

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lakesql/lakesql/storage/spec"
)

// SchemaChange is one change AlterTable applies. Mirrors the top-level
// column variants of org.apache.paimon.schema.SchemaChange; nested column
// paths are not supported. The implementations are the types below.
type SchemaChange interface {
	applyTo(a *alteration) error
}

// AddColumn adds a nullable column; existing rows read it as NULL. It goes
// last unless First or After says otherwise. Its field id, and those of
// any ROW fields nested in its type, follow the schema's highest field id.
type AddColumn struct {
	Name    string
	Type    spec.DataType
	Comment string
	First   bool
	// After is the column the new one follows.
	After string
}

// RenameColumn renames a column that is not a partition key, also where
// the primary key and the table options name it.
type RenameColumn struct {
	Name, NewName string
}

// DropColumn drops a column that is neither a primary nor a partition key.
type DropColumn struct {
	Name string
}

// UpdateColumnType changes the type of a column that is not a key (see
// isWidening for the changes allowed). The column keeps its nullability;
// the nullability of NewType is ignored.
type UpdateColumnType struct {
	Name    string
	NewType spec.DataType
}

// UpdateColumnComment replaces the comment of a column; empty removes it.
type UpdateColumnComment struct {
	Name, Comment string
}

// UpdateComment replaces the table comment; empty removes it.
type UpdateComment struct {
	Comment string
}

// SetOption sets a table option (see checkOptionChange for the options that
// cannot change).
type SetOption struct {
	Key, Value string
}

// RemoveOption removes a table option, so it takes its default.
type RemoveOption struct {
	Key string
}

// Derived is a change computed from the schema it applies to, with the
// changes before it in the same AlterTable applied: AlterTable re-applies
// its changes to the new latest schema after losing the race for the next
// schema id, so a change that edits a value (one more column in a list
// option) must be derived from that schema, not from the one the caller
// read. The schema passed is read only.
type Derived func(*spec.TableSchema) ([]SchemaChange, error)

func (ch AddColumn) applyTo(a *alteration) error {
	switch {
	case strings.TrimSpace(ch.Name) == "":
		return invalidf("column names must not be blank")
	case ch.First && ch.After != "":
		return invalidf("column %q cannot be both first and after %q", ch.Name, ch.After)
	case !ch.Type.Nullable:
		return invalidf("column %q cannot be added as NOT NULL: existing rows have no value for it", ch.Name)
	case a.next.FieldIndex(ch.Name) >= 0:
		return fmt.Errorf("%w: %q", ErrColumnExists, ch.Name)
	}
	at := len(a.next.Fields)
	if ch.First {
		at = 0
	} else if ch.After != "" {
		idx, err := a.columnIndex(ch.After)
		if err != nil {
			return err
		}
		at = idx + 1
	}
	added := []spec.DataField{{Name: ch.Name, Type: ch.Type, Description: ch.Comment}}
	added = assignFieldIDs(added, &a.next.HighestFieldID)
	a.next.Fields = slices.Insert(a.next.Fields, at, added[0])
	return nil
}

func (ch RenameColumn) applyTo(a *alteration) error {
	if slices.Contains(a.next.PartitionKeys, ch.Name) {
		return unsupportedf("cannot rename partition column %q", ch.Name)
	}
	idx, err := a.columnIndex(ch.Name)
	switch {
	case err != nil:
		return err
	case strings.TrimSpace(ch.NewName) == "":
		return invalidf("column names must not be blank")
	case a.next.FieldIndex(ch.NewName) >= 0:
		return fmt.Errorf("%w: %q", ErrColumnExists, ch.NewName)
	}
	a.next.Fields[idx].Name = ch.NewName
	a.next.PrimaryKeys = renameInList(a.next.PrimaryKeys, ch.Name, ch.NewName)
	renameColumnInOptions(a.next.Options, ch.Name, ch.NewName)
	spec.RenameFileIndexColumn(a.next.Options, ch.Name, ch.NewName)
	return nil
}

func (ch DropColumn) applyTo(a *alteration) error {
	if slices.Contains(a.next.PartitionKeys, ch.Name) || slices.Contains(a.next.PrimaryKeys, ch.Name) {
		return unsupportedf("cannot drop partition or primary-key column %q", ch.Name)
	}
	idx, err := a.columnIndex(ch.Name)
	if err != nil {
		return err
	}
	a.next.Fields = slices.Delete(a.next.Fields, idx, idx+1)
	if len(a.next.Fields) == 0 {
		return invalidf("cannot drop %q, the last column", ch.Name)
	}
	spec.DropFileIndexColumn(a.next.Options, ch.Name)
	return nil
}

func (ch UpdateColumnType) applyTo(a *alteration) error {
	if err := a.checkNotKeyColumn(ch.Name); err != nil {
		return err
	}
	idx, err := a.columnIndex(ch.Name)
	if err != nil {
		return err
	}
	from := a.next.Fields[idx].Type
	to := ch.NewType.WithNullable(from.Nullable)
	if from.String() == to.String() {
		return nil
	}
	if !isWidening(from, to) {
		return unsupportedf("changing column %q from %s to %s: lakesql only widens integers, "+
			"FLOAT to DOUBLE, DECIMAL precision at equal scale and VARCHAR length", ch.Name, from, to)
	}
	a.next.Fields[idx].Type = to
	return nil
}

// checkNotKeyColumn refuses type changes of key columns. Java refuses
// partition and primary keys; lakesql also refuses bucket keys, whose
// values would hash to other buckets under the new type.
func (a *alteration) checkNotKeyColumn(name string) error {
	switch {
	case slices.Contains(a.next.PartitionKeys, name):
		return unsupportedf("cannot change the type of partition column %q", name)
	case slices.Contains(a.next.PrimaryKeys, name):
		return unsupportedf("cannot change the type of primary-key column %q", name)
	case slices.Contains(a.next.CoreOptions().BucketKey(), name):
		return unsupportedf("cannot change the type of bucket-key column %q", name)
	}
	return nil
}

func (ch UpdateColumnComment) applyTo(a *alteration) error {
	idx, err := a.columnIndex(ch.Name)
	if err != nil {
		return err
	}
	a.next.Fields[idx].Description = ch.Comment
	return nil
}

func (ch UpdateComment) applyTo(a *alteration) error {
	a.next.Comment = nil
	if ch.Comment != "" {
		a.next.Comment = &ch.Comment
	}
	return nil
}

func (ch SetOption) applyTo(a *alteration) error {
	if err := a.checkOptionChange(ch.Key, &ch.Value); err != nil {
		return err
	}
	a.next.Options[ch.Key] = ch.Value
	return nil
}

func (d Derived) applyTo(a *alteration) error {
	changes, err := d(a.next)
	if err != nil {
		return err
	}
	for _, ch := range changes {
		if err := ch.applyTo(a); err != nil {
			return err
		}
	}
	return nil
}

func (ch RemoveOption) applyTo(a *alteration) error {
	if err := a.checkOptionChange(ch.Key, nil); err != nil {
		return err
	}
	delete(a.next.Options, ch.Key)
	return nil
}

func (a *alteration) columnIndex(name string) (int, error) {
	idx := a.next.FieldIndex(name)
	if idx < 0 {
		return 0, fmt.Errorf("%w: %q", ErrColumnNotFound, name)
	}
	return idx, nil
}
