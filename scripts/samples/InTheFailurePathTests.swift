extension TaskFlowFailurePathTests {
    // sample
}
