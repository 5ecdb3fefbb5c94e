export * from './claim-farmer-profile';
export * from './enrol-farmer';
export * from './erase-farmer';
export * from './farmer';
export * from './farmer-access';
export * from './farmer-id';
export * from './register-farmer';
export * from './update-farmer-profile';
