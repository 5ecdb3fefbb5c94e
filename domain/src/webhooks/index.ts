export * from './create-webhook-subscription';
export * from './deactivate-webhook-subscription';
export * from './delivery-schedule';
export * from './trigger-breached-delivery';
export * from './webhook-subscription';
