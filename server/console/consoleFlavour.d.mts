export declare function builtWithDevMailbox(dist: string): boolean;
