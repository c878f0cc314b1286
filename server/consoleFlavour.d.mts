export declare const DEV_MAILBOX_SCREEN: string;
export declare function builtWithDevMailbox(dist: string): boolean;
