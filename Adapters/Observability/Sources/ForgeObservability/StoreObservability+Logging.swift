internal import ForgeKVStore
internal import Logging

extension StoreObservability {
    /// Logs `event` at the level of its kind, with its store, label, operation and key or path as metadata.
    func log(_ event: StoreEvent) {
        let name = "\(event.store.observedName) \(event.operation.rawValue)"
        switch event.kind {
        case .call(let call):
            switch call.outcome {
            case .succeeded:
                logger.log(level: levels.success, "\(name)", metadata: metadata(event, call))
            case .failed(let failure):
                var metadata = metadata(event, call)
                metadata["forge.reason"] = .string(failure.observedReason)
                metadata["forge.error"] = .string(failure.description)
                logger.log(level: levels.failure, "\(name) failed", error: failure.error, metadata: metadata)
            }
        case .valueNotDecoded(let failure):
            var metadata = metadata(event)
            metadata["forge.type"] = .string(failure.expectedType)
            metadata["forge.stored_name"] = .string(event.observedStoredName(failure.storedName))
            metadata["forge.error"] = .string(failure.underlying)
            metadata["forge.read_as_nil"] = .stringConvertible(failure.readAsNil)
            logger.log(level: levels.valueNotDecoded, "\(name): a stored value did not decode", metadata: metadata)
        case .migrationApplied(let migration):
            var metadata = metadata(event)
            metadata["forge.stored_name"] = .string(event.observedStoredName(migration.storedName))
            metadata["forge.older_type"] = .string(migration.olderType)
            metadata["forge.type"] = .string(migration.currentType)
            logger.log(level: levels.migrationApplied, "\(name): a migration read the value", metadata: metadata)
        case .expiredValuesReclaimed(let count):
            var metadata = metadata(event)
            metadata["forge.count"] = .stringConvertible(count)
            logger.log(level: levels.expiredValuesReclaimed, "\(name): expired values reclaimed", metadata: metadata)
        }
    }

    /// The metadata of every record of `event`: the store, its label, the operation and the key or path.
    private func metadata(_ event: StoreEvent) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "forge.store": .string(event.store.observedName),
            "forge.label": .string(event.label),
            "forge.operation": .string(event.operation.rawValue),
        ]
        if let target = event.observedTarget { metadata[event.targetAttribute] = .string(target) }
        return metadata
    }

    /// The metadata of the record of `call`: that of its event, its duration and its bytes.
    private func metadata(_ event: StoreEvent, _ call: StoreEvent.Call) -> Logger.Metadata {
        var metadata = metadata(event)
        metadata["forge.duration_ns"] = .stringConvertible(call.duration.nanoseconds)
        if let read = call.bytesRead { metadata["forge.bytes_read"] = .stringConvertible(read) }
        if let written = call.bytesWritten { metadata["forge.bytes_written"] = .stringConvertible(written) }
        return metadata
    }
}

extension StoreEvent {
    /// A decoding failure's or migration's stored name, as a record shows it: `[redacted]` when the events omit names.
    fileprivate func observedStoredName(_ name: String) -> String {
        withholdsNames ? "[redacted]" : name
    }
}

extension Duration {
    /// The duration in whole nanoseconds, as metrics and spans take it (`Int64.max` past 292 years).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : whole.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
