/** EVENTSTORE_URL values that select the KurrentDB adapter (`esdb` is EventStoreDB's older scheme). */
export const isKurrentDbUrl = (url: string): boolean => /^(kurrentdb|esdb)(\+discover)?:\/\//i.test(url);
