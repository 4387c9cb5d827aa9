% One WiLabV2Xsim run of the reference configuration (GNU Octave; our driver, not their code).
%
%   octave-cli --path WILAB scripts/crossval/nr/wilab_run.m TECH SEED SECONDS OUTDIR [THRESHOLD]
%
% WILAB: a checkout of github.com/V2Xgithub/WiLabV2Xsim, branch Octave-version (d10ebc0);
% TECH: "NR" (5G-V2X) or "LTE"; THRESHOLD: the RSRP threshold per RE in dBm (-126, the
% paper's other value -110). Every parameter is passed here: the values of the paper's
% codeForPaper/Vittorio2021Performance/fig9_config.cfg and fig9_simulation.m (main branch,
% c8cedf7) for the curve "M = 100 %, -126 dBm, 350 B, MCS 4", the rest at the Octave-version
% defaults (printed by the run). Writes OUTDIR/packet_reception_ratio_1_5G.xls (or _LTE).
args = argv();
tech = args{1}; seed = str2double(args{2}); T = str2double(args{3}); out = args{4};
thr = -126;
if numel(args) >= 5
  thr = str2double(args{5});
end
pkg load statistics
wilab = fileparts(which('WiLabV2Xsim'));
addpath(genpath(wilab));
cfg = [tempname() '.cfg'];
fclose(fopen(cfg, 'w'));   % no file parameters: all of them below
common = {'seed', seed, 'simulationTime', T, ...
  'TypeOfScenario', 'ETSI-Highway', 'roadLength', 2000, 'NLanes', 3, 'roadWidth', 4, ...
  'rho', 100, 'vMean', 70, 'vStDev', 7, ...
  'beaconSizeBytes', 350, 'allocationPeriod', 0.1, 'Raw', 150, ...
  'F_dB', 6, 'Gt_dB', 3, 'Gr_dB', 3, 'BwMHz', 10, 'FixedPdensity', true, ...
  'BRAlgorithm', 18, 'probResKeep', 0.4, 'BRoverlapAllowed', false, ...
  'sizeSubchannel', 10, 'cv2xNumberOfReplicasMax', 1, 'powerThresholdAutonomous', thr, ...
  'dcc_active', false, 'cbrActive', true, 'printPacketReceptionRatio', true, ...
  'outputFolder', out};
if strcmpi(tech, 'NR')
  specific = {'Technology', '5G-V2X', 'SCS_NR', 15, 'nDMRS_NR', 24, ...
              'MCS_NR', 4, 'testMBest_5G', 1};
else
  specific = {'Technology', 'LTE-V2X', 'MCS_LTE', 4};
end
tic;
WiLabV2Xsim(cfg, common{:}, specific{:});
fprintf('WALL %.1f s\n', toc);
delete(cfg);
