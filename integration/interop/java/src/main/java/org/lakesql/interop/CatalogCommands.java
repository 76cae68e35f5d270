package org.lakesql.interop;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;
import org.apache.paimon.types.RowKind;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Subcommands for a shared catalog, e.g. the JDBC catalog whose commit lock
 * Java Paimon and lakesql both take (all take --catalog JSON, see
 * PaimonTool.catalog):
 *
 * <pre>
 * create-database --warehouse W --name DB               create it unless it exists
 * list            --warehouse W                         {"databases": {"db": ["t1", …], …}}
 * drop-table      --warehouse W --table db.t            drop it if it exists
 * commit-loop     --warehouse W --table db.t --user U --first K --count N
 *                 N commits of one row each, as fast as they go:
 *                 {"user": U, "commits": N, "snapshots": [ids], "millis": ms}
 * </pre>
 */
final class CatalogCommands {
    private CatalogCommands() {}

    /** run runs a subcommand of this class; false when cmd is not one of them. */
    static boolean run(String cmd, Map<String, String> a, PrintStream out) throws Exception {
        switch (cmd) {
            case "create-database":
                createDatabase(a, out);
                return true;
            case "list":
                list(a, out);
                return true;
            case "drop-table":
                dropTable(a, out);
                return true;
            case "commit-loop":
                commitLoop(a, out);
                return true;
            default:
                return false;
        }
    }

    private static void createDatabase(Map<String, String> a, PrintStream out) throws Exception {
        String name = PaimonTool.need(a, "name");
        try (Catalog c = PaimonTool.catalog(a)) {
            c.createDatabase(name, true);
        }
        print(out, PaimonTool.JSON.createObjectNode().put("database", name));
    }

    private static void list(Map<String, String> a, PrintStream out) throws Exception {
        ObjectNode dbs = PaimonTool.JSON.createObjectNode();
        try (Catalog c = PaimonTool.catalog(a)) {
            for (String db : sorted(c.listDatabases())) {
                ArrayNode tables = dbs.putArray(db);
                sorted(c.listTables(db)).forEach(tables::add);
            }
        }
        ObjectNode o = PaimonTool.JSON.createObjectNode();
        o.set("databases", dbs);
        print(out, o);
    }

    private static void dropTable(Map<String, String> a, PrintStream out) throws Exception {
        String name = PaimonTool.need(a, "table");
        try (Catalog c = PaimonTool.catalog(a)) {
            c.dropTable(Identifier.fromString(name), true);
        }
        print(out, PaimonTool.JSON.createObjectNode().put("dropped", name));
    }

    /**
     * commitLoop makes --count commits on a table of columns (id BIGINT,
     * writer STRING, seq BIGINT), commit i (1 … N, also its commit
     * identifier) writing the row (first + i, user, i). Several loops with
     * different users on one table race for each snapshot id; Paimon retries
     * a lost race itself. Then it lists the snapshots the user made, to be
     * checked against the rows and the other loops' snapshots.
     */
    private static void commitLoop(Map<String, String> a, PrintStream out) throws Exception {
        String name = PaimonTool.need(a, "table");
        String user = PaimonTool.need(a, "user");
        long first = Long.parseLong(PaimonTool.need(a, "first"));
        int count = Integer.parseInt(PaimonTool.need(a, "count"));
        try (Catalog c = PaimonTool.catalog(a)) {
            Table t = c.getTable(Identifier.fromString(name));
            long start = System.nanoTime();
            commitRows(t, user, first, count);
            long millis = (System.nanoTime() - start) / 1_000_000;
            ObjectNode o = PaimonTool.JSON.createObjectNode().put("user", user).put("commits", count);
            ArrayNode ids = o.putArray("snapshots");
            snapshotsOf(c, name, user).forEach(ids::add);
            o.put("millis", millis);
            print(out, o);
        }
    }

    /** commitRows is commit-loop's loop: one stream writer, one commit per row. */
    private static void commitRows(Table t, String user, long first, int count) throws Exception {
        StreamWriteBuilder wb = t.newStreamWriteBuilder().withCommitUser(user);
        try (IOManager io = IOManager.create(System.getProperty("java.io.tmpdir"));
                StreamTableWrite w = wb.newWrite(); StreamTableCommit sc = wb.newCommit()) {
            w.withIOManager(io);
            for (int i = 1; i <= count; i++) {
                ObjectNode r = PaimonTool.JSON.createObjectNode().put("id", first + i).put("writer", user).put("seq", i);
                w.write(SpecJson.row(r, t.rowType(), RowKind.INSERT));
                sc.commit(i, w.prepareCommit(false, i));
            }
        }
    }

    /** snapshotsOf lists the ids of the table's snapshots committed by user. */
    private static List<Long> snapshotsOf(Catalog c, String table, String user) throws Exception {
        List<Long> ids = new ArrayList<>();
        for (ObjectNode s : PaimonTool.rows(c.getTable(Identifier.fromString(table + "$snapshots")))) {
            if (user.equals(s.path("commit_user").asText())) {
                ids.add(s.get("snapshot_id").asLong());
            }
        }
        return ids;
    }

    private static List<String> sorted(List<String> names) {
        List<String> s = new ArrayList<>(names);
        s.sort(null);
        return s;
    }

    private static void print(PrintStream out, ObjectNode o) throws Exception {
        out.println(PaimonTool.JSON.writeValueAsString(o));
    }
}
