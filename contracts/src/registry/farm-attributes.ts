import { z } from '../zod';

// The enumerations of the seed's Farm table, exactly as listed there.
export const FarmType = z.enum(['smallholder', 'commercial', 'cooperative', 'outgrower', 'corporate']);
export const FarmSize = z.enum(['micro', 'small', 'medium', 'large', 'enterprise']);
export const TenureType = z.enum(['owned', 'leased', 'shared', 'rented']);
export const IrrigationType = z.enum(['drip', 'sprinkler', 'flood', 'surface', 'none']);
export const WaterSource = z.enum(['river', 'well', 'borehole', 'rainfed', 'others']);
export const SoilType = z.enum(['clay', 'sandy', 'loamy', 'silty', 'peaty', 'chalky', 'unknown']);
