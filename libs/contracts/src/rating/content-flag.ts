/** Whether a shipment contains alcohol, a battery or liquid (order calculation). */
export enum ContentFlag {
  Yes = 'Yes',
  No = 'No',
  NotApplicable = 'Not Applicable',
}
