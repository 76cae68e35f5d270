package org.lakesql.interop;

import com.fasterxml.jackson.databind.JsonNode;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.Table;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Subcommands for tables Java writes and lakesql reads (issue 14, part 2):
 *
 * <pre>
 * alter  --warehouse W --table db.t --changes JSON     SchemaChanges, one schema: [{"op": "add"|"drop"|"rename"|"retype"|"move"|"set"|"remove", …}]
 * tag    --warehouse W --table db.t --name T [--snapshot N]   create a tag (latest snapshot by default)
 * branch --warehouse W --table db.t --name B [--tag T]        create a branch (empty, or from a tag)
 * commit --warehouse W --table db.t [--branch B] --commits JSON   the write spec's "commits" on the table or a branch
 * </pre>
 *
 * Each also takes --catalog JSON (PaimonTool.catalog).
 */
final class JavaWrites {
    private JavaWrites() {}

    /** run runs a subcommand of this class; false when cmd is not one of them. */
    static boolean run(String cmd, Map<String, String> a, PrintStream out) throws Exception {
        switch (cmd) {
            case "alter":
                alter(a, out);
                return true;
            case "tag":
                tag(a, out);
                return true;
            case "branch":
                branch(a, out);
                return true;
            case "commit":
                commit(a, out);
                return true;
            default:
                return false;
        }
    }

    private static String need(Map<String, String> a, String name) {
        return PaimonTool.need(a, name);
    }

    private static Catalog catalog(Map<String, String> a) throws Exception {
        return PaimonTool.catalog(a);
    }

    private static void alter(Map<String, String> a, PrintStream out) throws Exception {
        List<SchemaChange> changes = new ArrayList<>();
        for (JsonNode c : PaimonTool.JSON.readTree(need(a, "changes"))) {
            String name = c.path("name").asText();
            switch (c.get("op").asText()) {
                case "add":
                    changes.add(SchemaChange.addColumn(name, SpecJson.type(c.get("type"))));
                    break;
                case "drop":
                    changes.add(SchemaChange.dropColumn(name));
                    break;
                case "rename":
                    changes.add(SchemaChange.renameColumn(name, c.get("to").asText()));
                    break;
                case "retype":
                    changes.add(SchemaChange.updateColumnType(name, SpecJson.type(c.get("type"))));
                    break;
                case "move":
                    changes.add(SchemaChange.updateColumnPosition(c.has("after")
                            ? SchemaChange.Move.after(name, c.get("after").asText())
                            : SchemaChange.Move.first(name)));
                    break;
                case "set":
                    changes.add(SchemaChange.setOption(c.get("key").asText(), c.get("value").asText()));
                    break;
                case "remove":
                    changes.add(SchemaChange.removeOption(c.get("key").asText()));
                    break;
                default:
                    throw new IllegalArgumentException("unknown schema change " + c);
            }
        }
        try (Catalog cat = catalog(a)) {
            cat.alterTable(Identifier.fromString(need(a, "table")), changes, false);
        }
        out.println(PaimonTool.JSON.writeValueAsString(PaimonTool.JSON.createObjectNode().put("changes", changes.size())));
    }

    private static void tag(Map<String, String> a, PrintStream out) throws Exception {
        try (Catalog cat = catalog(a)) {
            Table t = cat.getTable(Identifier.fromString(need(a, "table")));
            if (a.containsKey("snapshot")) {
                t.createTag(need(a, "name"), Long.parseLong(a.get("snapshot")));
            } else {
                t.createTag(need(a, "name"));
            }
        }
        out.println(PaimonTool.JSON.writeValueAsString(PaimonTool.JSON.createObjectNode().put("tag", a.get("name"))));
    }

    private static void branch(Map<String, String> a, PrintStream out) throws Exception {
        try (Catalog cat = catalog(a)) {
            Table t = cat.getTable(Identifier.fromString(need(a, "table")));
            if (a.containsKey("tag")) {
                t.createBranch(need(a, "name"), a.get("tag"));
            } else {
                t.createBranch(need(a, "name"));
            }
        }
        out.println(PaimonTool.JSON.writeValueAsString(PaimonTool.JSON.createObjectNode().put("branch", a.get("name"))));
    }

    private static void commit(Map<String, String> a, PrintStream out) throws Exception {
        Identifier id = Identifier.fromString(need(a, "table"));
        if (a.containsKey("branch")) {
            id = new Identifier(id.getDatabaseName(), id.getObjectName(), a.get("branch"));
        }
        int n = 0;
        try (Catalog cat = catalog(a)) {
            Table t = cat.getTable(id);
            for (JsonNode commit : PaimonTool.JSON.readTree(need(a, "commits"))) {
                PaimonTool.writeCommit(t, commit);
                n++;
            }
        }
        out.println(PaimonTool.JSON.writeValueAsString(PaimonTool.JSON.createObjectNode().put("commits", n)));
    }
}
