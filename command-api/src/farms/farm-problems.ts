// What the writes on an existing farm refuse (managedFarm in the domain): one wording for all of them.

export const UNKNOWN_FARM = { description: 'Unknown, inactive or invisible', codes: ['not_found'] } as const;

export const NOT_FARM_OWNER = {
  description: 'Not the owner: a granted organization may read the farm, not change it',
  codes: ['not_farm_owner'],
} as const;
