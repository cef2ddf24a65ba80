import ArgumentParser
import ForgeStorage
import Foundation
import TaskFlow
import Testing

@testable import forge

/// `forge inspect` and `forge kv get` on a value of a key TaskFlow declares that is JSON but does not decode as
/// the key's type: shown as such, naming the key and the type, instead of as a value the app reads.
struct UndecodableValueTests {
    /// Runs `body` with the path of a fresh data folder whose settings store holds `"8am"` for
    /// `taskflow.reminder` (a `Reminder` in TaskFlow) and a key TaskFlow does not declare; removed afterwards.
    private func withUndecodableReminder(_ body: (String, DiskKVStore) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("forge-tool-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let settings = DiskKVStore(directory: .custom(root), namespace: DataRoot.settingsNamespace)
        try settings.set(KVKey<String>(TaskKeys.reminder.key), value: "8am")
        try settings.set(KVKey<String>("notes.title"), value: "8am")
        try await body(root.path, settings)
    }

    @Test func inspectShowsAValueThatDoesNotDecodeAsSuchAndFails() async throws {
        try await withUndecodableReminder { root, _ in
            var output = CapturedOutput(isTerminal: false)
            await #expect(throws: ForgeError.problemsFound(1)) {
                try await InspectCommand.parse(["--root", root]).run(environment: [:], to: &output)
            }
            let lines = output.text.split(separator: "\n").map(String.init)
            let reminder = try #require(lines.first { $0.hasPrefix("  taskflow.reminder = ") })
            #expect(reminder.hasPrefix(#"  taskflow.reminder = "8am"  (does not decode as Reminder: "#))
            // A key TaskFlow does not declare has no type to check: its JSON is all there is to show.
            #expect(lines.contains(#"  notes.title = "8am""#))
        }
    }

    @Test func inspectJSONNamesTheTypeAndTheError() async throws {
        try await withUndecodableReminder { root, _ in
            var output = CapturedOutput(isTerminal: false)
            await #expect(throws: ForgeError.problemsFound(1)) {
                try await InspectCommand.parse(["--root", root, "--json"]).run(environment: [:], to: &output)
            }
            let report = try #require(try JSONSerialization.jsonObject(with: output.data) as? [String: Any])
            let namespaces = try #require(report["namespaces"] as? [[String: Any]])
            let values = try #require(namespaces.first?["values"] as? [[String: Any]])
            let reminder = try #require(values.first { $0["key"] as? String == TaskKeys.reminder.key })
            #expect(reminder["value"] as? String == "8am")
            #expect(reminder["type"] as? String == "Reminder")
            #expect((reminder["error"] as? String)?.hasPrefix("does not decode as Reminder: ") == true)
        }
    }

    @Test func inspectMarksAValueAnOlderVersionStoredWithoutFailing() async throws {
        try await withUndecodableReminder { root, settings in
            try settings.set(KVKey<ReminderV1>(TaskKeys.reminder.key), value: ReminderV1(hour: 8, minute: 30))
            var output = CapturedOutput(isTerminal: false)
            try await InspectCommand.parse(["--root", root]).run(environment: [:], to: &output)
            let expected =
                #"  taskflow.reminder = {"hour":8,"minute":30}"#
                + "  (stored by an older version: reads migrate it to Reminder)"
            #expect(output.text.split(separator: "\n").contains { $0 == expected })
        }
    }

    @Test func kvGetPrintsTheJSONThenReportsThatItDoesNotDecode() async throws {
        try await withUndecodableReminder { root, settings in
            var output = CapturedOutput(isTerminal: false)
            let error = await #expect(throws: ForgeError.self) {
                try await KVCommand.Get.parse(["--root", root, TaskKeys.reminder.key]).run(to: &output)
            }
            guard case .undecodableValue(let key, let namespace, let type, _) = error else {
                Issue.record("expected undecodableValue, got \(String(describing: error))")
                return
            }
            #expect(key == TaskKeys.reminder.key)
            #expect(namespace == DataRoot.settingsNamespace)
            #expect(type == "Reminder")
            #expect(error?.description.contains("'taskflow.reminder'") == true)
            #expect(error?.description.contains("does not decode as Reminder") == true)
            #expect(output.text == "\"8am\"\n")

            // A value TaskFlow reads, migrated or not, is printed and nothing more.
            try settings.set(KVKey<ReminderV1>(TaskKeys.reminder.key), value: ReminderV1(hour: 8, minute: 30))
            var migrated = CapturedOutput(isTerminal: false)
            try await KVCommand.Get.parse(["--root", root, TaskKeys.reminder.key]).run(to: &migrated)
            #expect(migrated.text == #"{"hour":8,"minute":30}"# + "\n")
        }
    }
}
