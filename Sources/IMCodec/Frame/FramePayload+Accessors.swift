extension FramePayload {
    /// The message of a message frame, or nil for a batch or an event.
    ///
    /// ```swift
    /// if let message = try decoder.decode(frame).message { … }
    /// ```
    public var message: Message? {
        if case .message(let message) = self { return message }
        return nil
    }

    /// The batch of a batch frame, or nil for a message or an event.
    public var batch: MessageBatch? {
        if case .batch(let batch) = self { return batch }
        return nil
    }

    /// The event of an event frame, or nil for a message or a batch.
    public var event: Event? {
        if case .event(let event) = self { return event }
        return nil
    }
}
