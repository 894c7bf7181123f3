import { LabelTrackingModule } from '@consign/label-tracking';
import { runMain, runServiceProcess } from '@consign/platform';

runMain('label-tracking-service', () =>
  runServiceProcess('label-tracking-service', LabelTrackingModule),
);
