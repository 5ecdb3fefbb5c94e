import { z } from '../zod';

// page and page_size arrive as query strings; anything but an integer in range is a 400.
export const PageNumber = z.coerce
  .number({ message: 'must be an integer of at least 1' })
  .int({ message: 'must be an integer of at least 1' })
  .min(1, { message: 'must be an integer of at least 1' })
  .default(1);

export const PageSize = z.coerce
  .number({ message: 'must be an integer from 1 to 100' })
  .int({ message: 'must be an integer from 1 to 100' })
  .min(1, { message: 'must be an integer from 1 to 100' })
  .max(100, { message: 'must be an integer from 1 to 100' })
  .default(20);
